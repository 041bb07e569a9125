/** Plain words for the platform's sub-account and key enums, used by the tables and the detail panel. */
import type { KeyView } from '../../../../shared/contract/keys';
import type { SubAccountView } from '../../../../shared/contract/subAccounts';
import type { Tone } from '../../ui';

export const STATE_TEXT: Record<SubAccountView['state'], { readonly text: string; readonly tone: Tone }> = {
  normal: { text: 'Active', tone: 'good' },
  frozen: { text: 'Frozen', tone: 'bad' },
  unknown: { text: 'Unknown state', tone: 'warn' },
};

export const TYPE_TEXT: Record<SubAccountView['type'], string> = {
  normal: 'Regular',
  crossMargin: 'Cross-margin',
  unknown: 'Other',
};

export const KEY_STATE_TEXT: Record<KeyView['state'], { readonly text: string; readonly tone: Tone }> = {
  normal: { text: 'Active', tone: 'good' },
  frozen: { text: 'Frozen', tone: 'bad' },
  locked: { text: 'Locked', tone: 'bad' },
  unknown: { text: 'Unknown', tone: 'warn' },
};

export const UNIFIED_MODE_TEXT: Record<string, string> = {
  classic: 'Classic',
  multi_currency: 'Unified · multi-currency margin',
  portfolio: 'Unified · portfolio margin',
  single_currency: 'Unified · single-currency margin',
};

export const unifiedModeText = (mode: string | undefined): string =>
  mode === undefined ? '—' : (UNIFIED_MODE_TEXT[mode] ?? mode);

/** Shows enough of a public key id to recognise it without filling the table. */
export const maskKey = (key: string): string => (key.length <= 12 ? key : `${key.slice(0, 6)}…${key.slice(-4)}`);

/** "3 days", "5 months": how long ago a Unix-seconds moment was. */
export const ageText = (seconds: number | undefined, nowMs: number): string => {
  if (seconds === undefined) return '—';
  const days = Math.max(0, Math.floor((nowMs - seconds * 1000) / 86_400_000));
  if (days === 0) return 'today';
  if (days < 60) return `${days} day${days === 1 ? '' : 's'}`;
  return `${Math.floor(days / 30)} months`;
};
