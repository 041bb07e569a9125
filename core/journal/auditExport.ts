/**
 * The signed audit export: the audit log's CSV (journal/audit.ts `exportCsv`) followed by one last
 * record, `"#signature","Ed25519","<public key>","<signature>"`, where the signature is Ed25519 over
 * the UTF-8 bytes of everything before that record and the public key is the desk's own (SPKI DER,
 * base64; the private key stays in the OS keychain: activity/auditTrust.ts). An auditor checks a
 * file later with `npm run audit:verify -- <file> [--key <fingerprint>]` (scripts/audit-verify.ts):
 * any changed byte, a removed or added row, or another key shows. The fingerprint (SHA-256 of the
 * public key) is shown in Activity → Audit log, so the auditor can tell the desk's key from one an
 * attacker made to re-sign an edited file.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { CSV_BOM, csvLine, parseCsv } from '../../shared/format/csv';
import { AUDIT_CSV_HEADER } from './audit';

export const SIGNATURE_MARKER = '#signature';
const ALGORITHM = 'Ed25519';

/** A public key's fingerprint as people compare it: SHA-256 of the SPKI DER, 32 hex digits in groups of 4. */
export const keyFingerprint = (publicKeyDer: Buffer): string =>
  (createHash('sha256').update(publicKeyDer).digest('hex').slice(0, 32).match(/.{4}/g) ?? []).join(' ');

export interface SigningKey {
  readonly privateKey: KeyObject;
  /** SPKI DER of the public key. */
  readonly publicKeyDer: Buffer;
}

/** A signing key from its stored form (PKCS#8 DER, base64). */
export const signingKeyFrom = (pkcs8Base64: string): SigningKey => {
  const privateKey = createPrivateKey({ key: Buffer.from(pkcs8Base64, 'base64'), format: 'der', type: 'pkcs8' });
  return {
    privateKey,
    publicKeyDer: createPublicKey(privateKey).export({ format: 'der', type: 'spki' }),
  };
};

/** The CSV with its signature record appended. */
export const signAuditExport = (csv: string, key: SigningKey): string => {
  const signature = sign(null, Buffer.from(csv, 'utf8'), key.privateKey);
  return `${csv}${csvLine([SIGNATURE_MARKER, ALGORITHM, key.publicKeyDer.toString('base64'), signature.toString('base64')])}`;
};

export type AuditExportCheck =
  | {
      readonly ok: true;
      readonly fingerprint: string;
      readonly entries: number;
      /** The first and last entry numbers in the file (absent when it holds none). */
      readonly firstSeq?: number;
      readonly lastSeq?: number;
    }
  | { readonly ok: false; readonly problem: string; readonly fingerprint?: string };

/**
 * Checks a signed export as saved (a BOM at the start is allowed: the app's save adds one).
 * `expectedFingerprint`: the desk's key as the auditor knows it; another key fails.
 */
export const checkAuditExport = (text: string, expectedFingerprint?: string): AuditExportCheck => {
  const body = text.startsWith(CSV_BOM) ? text.slice(1) : text;
  const start = body.lastIndexOf(`"${SIGNATURE_MARKER}"`);
  if (start < 0 || (start > 0 && !body.slice(0, start).endsWith('\r\n'))) {
    return { ok: false, problem: 'The file has no signature record: it is not a signed audit export.' };
  }
  const signed = body.slice(0, start);
  const [record, ...after] = parseCsv(body.slice(start));
  if (after.length > 0 || !body.endsWith('\r\n')) {
    return { ok: false, problem: 'Something follows the signature record: the file was changed after it was signed.' };
  }
  const [, algorithm, publicKey, signature] = record ?? [];
  if (algorithm !== ALGORITHM || !publicKey || !signature) {
    return { ok: false, problem: `The signature record is not ${ALGORITHM} with a public key and a signature.` };
  }
  const publicKeyDer = Buffer.from(publicKey, 'base64');
  const fingerprint = keyFingerprint(publicKeyDer);
  let valid: boolean;
  try {
    valid = verify(
      null,
      Buffer.from(signed, 'utf8'),
      createPublicKey({ key: publicKeyDer, format: 'der', type: 'spki' }),
      Buffer.from(signature, 'base64'),
    );
  } catch {
    valid = false;
  }
  if (!valid) {
    return { ok: false, fingerprint, problem: 'The signature does not match the content: the file was changed.' };
  }
  const normalise = (f: string) => f.replace(/\s+/g, '').toLowerCase();
  if (expectedFingerprint !== undefined && normalise(expectedFingerprint) !== normalise(fingerprint)) {
    return {
      ok: false,
      fingerprint,
      problem: `Signed with key ${fingerprint}, not with the desk's key ${expectedFingerprint}: it may have been re-signed.`,
    };
  }
  const [header, ...rows] = parseCsv(signed);
  if (header?.join(',') !== AUDIT_CSV_HEADER.join(',')) {
    return { ok: false, fingerprint, problem: 'The signed content is not an audit export (unexpected columns).' };
  }
  const seqs = rows.map((r) => Number(r[0]));
  return {
    ok: true,
    fingerprint,
    entries: rows.length,
    ...(seqs.length ? { firstSeq: seqs[0], lastSeq: seqs.at(-1) } : {}),
  };
};
