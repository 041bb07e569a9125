/**
 * A journal write that the disk refused: full, read-only or failing. Such a write is a state the
 * person must see (a movement may still go out, or may have gone out, while the journal could not
 * record it), never a generic "something went wrong".
 */

/** Why the journal cannot be written, in the person's words; undefined for other errors (bugs). */
export const journalWriteProblem = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS' || code === 'EACCES') {
    return 'the data folder cannot be written (read-only or no permission)';
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'the disk reported a write error';
  return undefined;
};

/** Thrown by the movements journal when a write failed for a reason journalWriteProblem names. */
export class JournalUnwritable extends Error {
  override readonly name = 'JournalUnwritable';

  constructor(
    /** In the person's words, e.g. "the disk is full". */
    readonly problem: string,
    cause: unknown,
  ) {
    super(`The app's journal cannot be written: ${problem}.`, { cause });
  }
}
