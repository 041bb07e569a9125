/** A failed trigger's reason in plain words (the lists, the ticket's result line, the notice). */
const REASON_WORDS: Record<string, string> = {
  BALANCE_NOT_ENOUGH: 'not enough balance when it fired',
  AMOUNT_TOO_LITTLE: 'the order was below the minimum when it fired',
  TRADE_RESTRICTED: 'the pair could not be traded when it fired',
};

/** A failed trigger's reason in words ("BALANCE_NOT_ENOUGH: …" → "not enough balance when it fired"). */
export const reasonWords = (reason: string): string => {
  const label = /^([A-Z_]+)(:|$)/.exec(reason)?.[1];
  return (label && REASON_WORDS[label]) || reason || 'the platform refused the order';
};
