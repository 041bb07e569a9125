import { z } from 'zod';
import { activityEvents } from './activity';
import { bulkEvents } from './bulk';
import { profilesEvents } from './profiles';
import { tradeEvents } from './trade';

/**
 * Status change of a pending deposit, withdrawal or UID push, found by the core's watchers
 * (electron/core/watchers). `record` is the platform's record as received (validated);
 * `previousStatus` is absent the first time the record is seen. Screens and OS notifications use it.
 */
const FundingRecordChanged = z.object({
  profileId: z.string(),
  id: z.string(),
  currency: z.string(),
  amount: z.string(),
  status: z.string(),
  previousStatus: z.string().optional(),
  /** Our client id (withdraw_order_id) when the app sent it. */
  clientId: z.string().optional(),
  record: z.record(z.string(), z.unknown()),
});

/**
 * Main→renderer events, by name. Payloads are validated in main before they are sent.
 * Name them "area.somethingHappened".
 */
export const events = {
  'app.notice': z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  ...tradeEvents,
  ...profilesEvents,
  ...activityEvents,
  ...bulkEvents,
  'funding.depositChanged': FundingRecordChanged,
  'funding.withdrawalChanged': FundingRecordChanged,
  'funding.pushChanged': FundingRecordChanged,
  /** An approval was added, decided, expired or sent: the Approvals screen refreshes. */
  'approvals.changed': z.object({ id: z.string(), state: z.string() }),
};
