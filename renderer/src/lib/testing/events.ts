/**
 * Valid payloads of main's events for component tests (fakeDesk's `emit` validates every payload
 * against the contract, as main does): each takes the fields a test is about.
 */
import type { MovementView } from '../../../../shared/contract/activity';

/** Every field of a journaled movement (`operator` too, which contracts before operators lack). */
const movement = {
  id: 'intent-1',
  profileId: 'p1',
  kind: 'withdrawal',
  state: 'done',
  clientId: 'td0000000001',
  currency: 'USDT',
  amount: '5',
  params: {},
  attempts: 1,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  operator: '',
} as const;

/** An `activity.movementChanged` payload: a journaled movement. */
export const movementChanged = (over: Partial<MovementView> = {}): MovementView => ({ ...movement, ...over });
