/** The Approvals screen's words for states and kinds, and its durations. */
import type { Approval, ApprovalState } from '../../../../shared/contract/policies';
import type { Tone } from '../../ui';

const STATE_WORDS: Readonly<Record<ApprovalState, { readonly text: string; readonly tone: Tone }>> = {
  pending: { text: 'Waiting for approval', tone: 'warn' },
  approved: { text: 'Approved — sending', tone: 'info' },
  sent: { text: 'Approved and sent', tone: 'good' },
  rejected: { text: 'Rejected — never sent', tone: 'bad' },
  expired: { text: 'Expired — never sent', tone: 'neutral' },
  failed: { text: 'Not sent', tone: 'bad' },
  // Retracted by its maker, or its batch cancelled in Bulk while it waited.
  cancelled: { text: 'Retracted — never sent', tone: 'neutral' },
};

/** A control change's words where a movement's differ ("applied" rather than "sent"). */
const CONTROL_STATE_WORDS: Partial<Record<ApprovalState, string>> = {
  approved: 'Approved — applying',
  sent: 'Approved and applied',
  rejected: 'Rejected — never applied',
  expired: 'Expired — never applied',
  failed: 'Not applied',
  cancelled: 'Retracted — never applied',
};

export const stateWords = (a: Approval): { readonly text: string; readonly tone: Tone } => ({
  ...STATE_WORDS[a.state],
  ...(a.kind === 'control' && CONTROL_STATE_WORDS[a.state] ? { text: CONTROL_STATE_WORDS[a.state] as string } : {}),
});

export const KIND_WORDS: Readonly<Record<Approval['kind'], string>> = {
  withdrawal: 'Withdrawal',
  push: 'UID transfer',
  batch: 'Batch',
  control: 'Control change',
};

/** "3 h 12 min", "4 min 05 s", "12 s". */
export const durationWords = (ms: number): string => {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
};
