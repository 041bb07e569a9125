/**
 * `npm run audit:verify -- <export.csv> [--key "<fingerprint>"]`: checks a signed audit export
 * (Activity → Audit log → Export) as an auditor would, long after it was saved: the Ed25519
 * signature over the whole file, and — with `--key` — that it was signed by the desk's own key (its
 * fingerprint is shown in Activity → Audit log). Any changed byte, a removed or added row, or a
 * file re-signed with another key fails. Exit code 0 when the file checks out, 1 when it does not,
 * 2 for a wrong command line. See docs/security.md, "The audit log".
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { checkAuditExport } from '../core/journal/auditExport';

export const USAGE = 'usage: npm run audit:verify -- <export.csv> [--key "<fingerprint>"]';

/** The lines to print and the exit code for these arguments. */
export const auditVerify = (
  args: readonly string[],
  read: (path: string) => string,
): { lines: string[]; code: number } => {
  const keyAt = args.indexOf('--key');
  const expected = keyAt >= 0 ? args[keyAt + 1] : undefined;
  const files = keyAt >= 0 ? args.filter((_, i) => i !== keyAt && i !== keyAt + 1) : [...args];
  if (files.length !== 1 || (keyAt >= 0 && expected === undefined)) return { lines: [USAGE], code: 2 };
  const [file] = files as [string];
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    return { lines: [`${file}: cannot be read (${(error as Error).message})`], code: 2 };
  }
  const result = checkAuditExport(text, expected);
  if (!result.ok) {
    return {
      lines: [
        `${file}: NOT VALID — ${result.problem}`,
        ...(result.fingerprint ? [`signed by key ${result.fingerprint}`] : []),
      ],
      code: 1,
    };
  }
  return {
    lines: [
      `${file}: valid — ${result.entries} ${result.entries === 1 ? 'entry' : 'entries'}${result.firstSeq !== undefined ? ` (${result.firstSeq} to ${result.lastSeq})` : ''}, unchanged since it was signed.`,
      `signed by key ${result.fingerprint}${expected ? ' (the key you gave)' : ' — compare it with the fingerprint in Activity → Audit log, or pass --key'}`,
    ],
    code: 0,
  };
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { lines, code } = auditVerify(process.argv.slice(2), (path) => readFileSync(path, 'utf8'));
  for (const line of lines) (code === 0 ? console.log : console.error)(line);
  process.exitCode = code;
}
