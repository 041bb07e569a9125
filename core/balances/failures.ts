/**
 * One line of plain words for a read that failed inside a combined view (the firm-wide view),
 * where one failing source must not fail the whole view but must never show as zero either.
 */
import { isConvertibleToIpcError } from '../errors';

export const describeFailure = (error: unknown): string => {
  if (isConvertibleToIpcError(error)) {
    const detail = error.toIpcError();
    return detail.label ? `${detail.message} (${detail.label})` : detail.message;
  }
  if (error instanceof Error) return error.message;
  return 'Could not be read.';
};
