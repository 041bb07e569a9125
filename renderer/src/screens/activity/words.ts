import type { MovementView } from '../../../../shared/contract/activity';

/** Each kind of money movement in words. */
export const KIND_WORDS: Record<MovementView['kind'], string> = {
  withdrawal: 'Withdrawal',
  push: 'UID transfer',
  transfer: 'Transfer between own accounts',
  subAccountTransfer: 'Main ↔ sub-account transfer',
  subToSubTransfer: 'Sub-account → sub-account transfer',
  spotOrder: 'Spot order',
};

/**
 * Where a movement was asked for, in words: on a screen, or the batch row with who confirmed the
 * batch and when (main's words, MovementView.origin); "not recorded" for movements journaled before
 * origins were kept.
 */
export const originWords = (origin: MovementView['origin']): string => {
  if (!origin) return 'Origin not recorded';
  if (origin === 'screen') return 'Sent from a screen';
  return `From ${origin}`;
};
