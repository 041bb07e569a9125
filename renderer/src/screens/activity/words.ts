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
