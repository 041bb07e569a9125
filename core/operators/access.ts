/**
 * Who may call which operation. The dispatcher asks `accessOf(operation)` for every call and
 * refuses with NOT_ALLOWED when the signed-in operator's role does not reach it, and with LOCKED when
 * nobody is signed in or the app is locked (except for `open` operations).
 *
 * Roles are ranked: viewer < maker < approver < admin; each may do what the ones below may.
 * An operation missing from the table is admin-only (fail closed); `access.test.ts` lists any
 * operation of the contract that is missing, so a new one gets its line here.
 */
import type { OperatorRole } from '../../shared/contract/operators';

/**
 * - open: answered to anyone, also while locked or signed out (liveness, the lock, signing in);
 * - self: any signed-in operator, about themselves or their own screen (their passphrase, saving a file they exported, their notification preferences);
 * - read: viewer and up; make: maker and up (money movements, orders); approve: approver and up;
 * - admin: operators, profiles, API keys, policies, sub-account administration.
 */
export type Access = 'open' | 'self' | 'read' | 'make' | 'approve' | 'admin';

const RANK: Readonly<Record<OperatorRole, number>> = { viewer: 0, maker: 1, approver: 2, admin: 3 };
const NEEDS: Readonly<Record<Exclude<Access, 'open'>, number>> = {
  self: 0,
  read: 0,
  make: RANK.maker,
  approve: RANK.approver,
  admin: RANK.admin,
};

/** Whether a role may call an operation of this access. */
export const can = (role: OperatorRole, access: Access): boolean => access === 'open' || RANK[role] >= NEEDS[access];

export const canMake = (role: OperatorRole): boolean => can(role, 'make');
export const canApprove = (role: OperatorRole): boolean => can(role, 'approve');
export const canAdminister = (role: OperatorRole): boolean => can(role, 'admin');

/** Every operation of the contract, by area. */
export const OPERATION_ACCESS: Readonly<Record<string, Access>> = {
  // app
  'app.ping': 'open',
  'app.info': 'open',
  'app.lock': 'open',
  'app.unlock': 'open',
  'app.lockState': 'open',
  'app.saveFile': 'self',
  'app.notificationSettings': 'self',
  'app.setNotificationSettings': 'self',
  'app.openExternal': 'self',
  // operators
  'operators.current': 'open',
  'operators.setup': 'open',
  'operators.signIn': 'open',
  // Open: it only takes rights away (and it locks, which waits for the tracked calls: it must not be one).
  'operators.signOut': 'open',
  'operators.changePassphrase': 'self',
  'operators.list': 'admin',
  'operators.create': 'admin',
  'operators.changeRole': 'admin',
  'operators.remove': 'admin',
  'operators.resetPassphrase': 'admin',
  // Another administrator lets a locked-out operator try again (after the trusted confirmation).
  'operators.liftLockout': 'admin',
  // profiles
  'profiles.list': 'read',
  'profiles.active': 'read',
  // The whole desk's active profile (what every screen shows and every movement uses): an operator action.
  'profiles.switch': 'make',
  'profiles.connectionCheck': 'read',
  'profiles.status': 'read',
  'profiles.keychainStatus': 'read',
  'profiles.add': 'admin',
  'profiles.update': 'admin',
  'profiles.remove': 'admin',
  'profiles.setKey': 'admin',
  'profiles.removeKey': 'admin',
  // balances
  'balances.total': 'read',
  'balances.spot': 'read',
  'balances.totalHistory': 'read',
  'balances.smallBalances': 'read',
  'balances.smallBalanceHistory': 'read',
  'balances.firm': 'read',
  'balances.firmHistory': 'read',
  'balances.convertSmallBalances': 'make',
  // funding
  'funding.withdrawRules': 'read',
  'funding.chains': 'read',
  'funding.depositAddress': 'read',
  'funding.deposits': 'read',
  'funding.withdrawals': 'read',
  'funding.withdrawal': 'read',
  'funding.savedAddresses': 'read',
  'funding.pushes': 'read',
  'funding.reviewPolicy': 'read',
  'funding.withdraw': 'make',
  'funding.cancelWithdrawal': 'make',
  'funding.push': 'make',
  'funding.setReviewPolicy': 'admin',
  // transfers
  'transfers.status': 'read',
  'transfers.available': 'read',
  'transfers.history': 'read',
  'transfers.send': 'make',
  // sub-accounts
  'subAccounts.list': 'read',
  'subAccounts.balances': 'read',
  'subAccounts.get': 'read',
  'subAccounts.unifiedMode': 'read',
  'subAccounts.create': 'admin',
  'subAccounts.lock': 'admin',
  'subAccounts.unlock': 'admin',
  // API keys
  'keys.list': 'read',
  'keys.create': 'admin',
  'keys.update': 'admin',
  'keys.delete': 'admin',
  // trade
  'trade.pairs': 'read',
  'trade.tickers': 'read',
  'trade.watchMarket': 'read',
  'trade.unwatchMarket': 'read',
  'trade.bookSnapshot': 'read',
  'trade.account': 'read',
  'trade.terms': 'read',
  'trade.settings': 'read',
  'trade.findOrder': 'read',
  'trade.openOrders': 'read',
  'trade.orderHistory': 'read',
  'trade.myTrades': 'read',
  'trade.triggerOrders': 'read',
  'trade.updateSettings': 'make',
  'trade.placeOrder': 'make',
  'trade.cancelOrder': 'make',
  'trade.cancelAll': 'make',
  'trade.amendOrder': 'make',
  'trade.placeTrigger': 'make',
  'trade.cancelTrigger': 'make',
  'trade.cancelAllTriggers': 'make',
  // activity
  'activity.auditLog': 'read',
  'activity.verifyAudit': 'read',
  'activity.exportAuditCsv': 'read',
  'activity.auditIntegrity': 'read',
  // Re-keys the chain over the log as it stands: an administrator, after the trusted confirmation.
  'activity.acknowledgeAuditFailure': 'admin',
  'activity.movements': 'read',
  'activity.movement': 'read',
  'activity.exportMovementsCsv': 'read',
  'activity.reconcile': 'read',
  'activity.startHistorySync': 'read',
  'activity.cancelHistorySync': 'read',
  'activity.historyStatus': 'read',
  'activity.history': 'read',
  'activity.exportHistoryCsv': 'read',
  'activity.resolveMovement': 'make',
  // bulk batches
  'bulk.exampleCsv': 'read',
  'bulk.preview': 'read',
  'bulk.planSweep': 'read',
  'bulk.list': 'read',
  'bulk.get': 'read',
  'bulk.exportReport': 'read',
  'bulk.keyHealth': 'read',
  'bulk.create': 'make',
  'bulk.start': 'make',
  'bulk.pause': 'make',
  'bulk.resume': 'make',
  'bulk.cancel': 'make',
  'bulk.retryFailed': 'make',
  'bulk.createSubAccounts': 'admin',
  'bulk.setFrozen': 'admin',
  'bulk.rotateKeys': 'admin',
  'bulk.confirmRotation': 'admin',
  // policies and approvals (core/policies/)
  'policies.get': 'read',
  'policies.set': 'admin',
  'approvals.list': 'read',
  'approvals.approve': 'approve',
  'approvals.reject': 'approve',
  // Its maker only (the queue checks): a trader retracts what they prepared.
  'approvals.retract': 'make',
  'approvals.fourEyes': 'read',
  // team (docs/team.md): anyone signed in sees whether the desk is in a team (the frame's banner);
  // creating, joining and leaving are checked inside against this desk's administrators (a desk
  // taken into a team must be able to leave it before its administrator is enrolled there).
  'team.status': 'self',
  'team.create': 'self',
  'team.join': 'self',
  'team.leave': 'self',
  'team.requestEnrolment': 'self',
  'team.prepareEnrolment': 'admin',
  'team.auditChain': 'read',
  'team.importJournal': 'admin',
};

/** The access an operation needs; admin for one missing from the table (fail closed). */
export const accessOf = (operation: string): Access =>
  Object.hasOwn(OPERATION_ACCESS, operation) ? OPERATION_ACCESS[operation]! : 'admin';

/** In words, for NOT_ALLOWED. */
export const ACCESS_WORDS: Readonly<Record<Exclude<Access, 'open' | 'self' | 'read'>, string>> = {
  make: 'a maker, approver or administrator',
  approve: 'an approver or administrator',
  admin: 'an administrator',
};
