import { z } from 'zod';
import { activityEvents } from './activity';
import { bulkEvents } from './bulk';
import { DepositRecord, PushRecord, WithdrawalRecord } from './funding';
import { profilesEvents } from './profiles';
import { TeamStatus } from './team';
import { tradeEvents } from './trade';

/**
 * Status change of a pending deposit, withdrawal or UID push, found by the core's watchers
 * (core/watchers). `record` is the whole record in the contract's own type — the same one
 * `funding.deposits` / `funding.withdrawals` / `funding.pushes` answer — so a screen puts it in
 * its query cache (`setQueryData`) instead of reading it again (docs/architecture.md, "Events
 * carry data"). `previousStatus` is absent the first time the record is seen. Screens and OS
 * notifications use it.
 */
const fundingRecordChanged = <R extends z.ZodType>(record: R) =>
  z.object({
    profileId: z.string(),
    id: z.string(),
    currency: z.string(),
    amount: z.string(),
    status: z.string(),
    previousStatus: z.string().optional(),
    /** Our client id (withdraw_order_id) when the app sent it. */
    clientId: z.string().optional(),
    /** The app itself sent it (its journal holds it): the screen that sent it already refreshed what it moved. */
    own: z.boolean().optional(),
    record,
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
  'funding.depositChanged': fundingRecordChanged(DepositRecord),
  'funding.withdrawalChanged': fundingRecordChanged(WithdrawalRecord),
  'funding.pushChanged': fundingRecordChanged(PushRecord),
  /** An approval was added, decided, expired or sent: the Approvals screen refreshes. */
  'approvals.changed': z.object({ id: z.string(), state: z.string() }),
  /** Team mode: the database came or went, the chain stopped verifying, a movement was blocked, … */
  'team.statusChanged': TeamStatus,
};
