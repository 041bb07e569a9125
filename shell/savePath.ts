/**
 * The rules of the Chromium shell's save dialog (./saveWindow.ts), checked in the shell's process —
 * the page only collects what the person typed:
 *
 * - the file name: a plain name (no path separator, no control character, not hidden), ending with
 *   the export's extension (".csv"), at most MAX_FILE_NAME characters;
 * - the folder: must exist, be a folder, and be inside the person's home folder (after resolving
 *   links: a link inside home that points elsewhere is refused), or be the shell's own default
 *   folder (the Downloads folder; tests use a temporary one). "~" stands for the home folder;
 * - the file: when it exists it must be a plain file (never a folder or a link), and replacing it
 *   needs the person's confirmation (`exists: true` until they give it).
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MAX_FILE_NAME } from '../shared/contract/app';

export type SaveField = 'name' | 'folder';

export type SaveCheck =
  /** Where to write; `exists`: a plain file is there already (replacing it needs the person's yes). */
  | { readonly ok: true; readonly path: string; readonly exists: boolean }
  | { readonly ok: false; readonly field: SaveField; readonly message: string };

export interface SaveRules {
  /** The person's home folder. */
  readonly home: string;
  /** The export's extension, with its dot (".csv"). */
  readonly extension: string;
  /** Folders allowed besides those inside home (the default folder the dialog opens in). */
  readonly alsoAllowed?: readonly string[];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a typed file name cannot be used, or undefined when it can. */
export const fileNameProblem = (raw: string, extension: string): string | undefined => {
  const name = raw.trim();
  if (name === '') return 'Enter a file name.';
  if (name.includes('/') || name.includes('\\')) return 'A file name cannot contain / or \\ (choose the folder below).';
  if (CONTROL.test(name)) return 'A file name cannot contain control characters.';
  if (name.startsWith('.')) return 'A file name cannot start with a dot.';
  if (!name.toLowerCase().endsWith(extension.toLowerCase()) || name.length === extension.length) {
    return `The name must end with ${extension}, e.g. export${extension}.`;
  }
  if (Array.from(name).length > MAX_FILE_NAME) return `Use at most ${MAX_FILE_NAME} characters.`;
  return undefined;
};

const inside = (folder: string, root: string): boolean => {
  const rel = relative(root, folder);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

const realOrUndefined = async (path: string): Promise<string | undefined> => {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
};

/** Expands "~" and checks that the folder exists, is a folder and is allowed; its real path, or why not. */
export const checkFolder = async (raw: string, rules: SaveRules): Promise<{ path: string } | { message: string }> => {
  let typed = raw.trim();
  if (typed === '') return { message: 'Enter a folder.' };
  if (CONTROL.test(typed)) return { message: 'A folder cannot contain control characters.' };
  if (typed === '~' || typed.startsWith('~/')) typed = join(rules.home, typed.slice(1));
  if (!isAbsolute(typed)) return { message: 'Enter the whole path of the folder (it starts with / or ~).' };
  const real = await realOrUndefined(resolve(typed));
  if (real === undefined) return { message: 'There is no such folder.' };
  if (!(await stat(real)).isDirectory()) return { message: 'This is a file, not a folder.' };
  const home = (await realOrUndefined(rules.home)) ?? resolve(rules.home);
  const extra = await Promise.all((rules.alsoAllowed ?? []).map(async (f) => (await realOrUndefined(f)) ?? resolve(f)));
  if (!inside(real, home) && !extra.includes(real)) {
    return { message: `Choose a folder inside your home folder (${rules.home}).` };
  }
  return { path: real };
};

/** Checks a name and a folder as typed; where the file would be written, or the field that is wrong. */
export const checkSaveTarget = async (
  input: { readonly name: string; readonly folder: string },
  rules: SaveRules,
): Promise<SaveCheck> => {
  const nameProblem = fileNameProblem(input.name, rules.extension);
  if (nameProblem) return { ok: false, field: 'name', message: nameProblem };
  const folder = await checkFolder(input.folder, rules);
  if ('message' in folder) return { ok: false, field: 'folder', message: folder.message };
  const path = join(folder.path, input.name.trim());
  try {
    const existing = await lstat(path);
    if (!existing.isFile()) {
      return { ok: false, field: 'name', message: 'Something that is not a plain file has this name: choose another.' };
    }
    return { ok: true, path, exists: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, path, exists: false };
    return {
      ok: false,
      field: 'folder',
      message: `This folder cannot be read (${(error as NodeJS.ErrnoException).code}).`,
    };
  }
};
