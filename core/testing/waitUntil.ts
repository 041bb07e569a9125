/**
 * Test helper: waits for a condition, never for a fixed time. The condition is checked at once and
 * then every `everyMs` (default 10 ms) until it holds; after `timeoutMs` the wait fails saying what
 * it waited for and how long. For what only real time brings (a sandbox pipeline, another process);
 * work of a core is waited for with `core.idle()`, a manual scheduler's with `advance`/`idle`.
 */
export interface WaitOptions {
  /** Fails after this long (default 10 s). */
  readonly timeoutMs?: number;
  /** Named in the failure ("the batch to finish"). */
  readonly what?: string;
  readonly everyMs?: number;
}

export const waitUntil = async (
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, what = 'the condition', everyMs = 10 }: WaitOptions = {},
): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`waited ${timeoutMs / 1000} s for ${what}, in vain`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};
