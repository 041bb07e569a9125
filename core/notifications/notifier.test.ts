import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../shared/contract/app';
import { openJournalDb } from '../journal/db';
import { createSettings } from '../journal/store';
import { APPROVAL_WAITING, type FundingChange, FundingNotifier, type OsNotification, SETTINGS_KEY } from './notifier';

const SECRET = 'b5c1e7f0a9d84c2e8f3a1b6d7e9c0a2f4b8d1e3f5a7c9e0b2d4f6a8c1e3b5d7f';
const ADDRESS = '0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';

const setup = (options: { unavailableReason?: string } = {}) => {
  const shown: OsNotification[] = [];
  const settings = createSettings(openJournalDb(':memory:'));
  const notifier = new FundingNotifier({
    settings,
    capability: {
      showOsNotification: (notification) => shown.push(notification),
      ...(options.unavailableReason ? { unavailableReason: options.unavailableReason } : {}),
    },
    profileName: (id) => (id === 'local-sandbox' ? 'Local sandbox' : undefined),
  });
  return { shown, settings, notifier };
};

const deposit = (status: string, previousStatus?: string): FundingChange => ({
  profileId: 'local-sandbox',
  currency: 'USDT',
  amount: '1250.5',
  status,
  ...(previousStatus ? { previousStatus } : {}),
  // What the platform's record carries: none of it may reach the notification.
  record: { id: 'd1', txid: '0xabc123txid', address: ADDRESS, memo: 'memo-778', status, secret: SECRET },
});

const withdrawal = (status: string, previousStatus?: string): FundingChange => ({
  ...deposit(status, previousStatus),
  currency: 'BTC',
  amount: '0.015',
  record: { id: 'w1', withdraw_order_id: 'td-1', address: ADDRESS, status },
});

describe('FundingNotifier', () => {
  it('a deposit going DONE gives exactly one notification with amount, currency, profile and the timeline words', () => {
    const { shown, notifier } = setup();
    notifier.observe('funding.depositChanged', deposit('DONE', 'TRACK'));
    expect(shown).toEqual([
      {
        title: 'Deposit 1,250.5 USDT · Local sandbox',
        body: 'Done: the funds are in your spot account',
      },
    ]);
  });

  it('tells the approvers when an item starts to wait, without amount or destination', () => {
    const { shown, notifier } = setup();
    notifier.approvalWaiting();
    expect(shown).toEqual([APPROVAL_WAITING]);
    expect(JSON.stringify(shown)).not.toMatch(/\d/);
  });

  it('stays quiet for steps on the way and for repeats of the same status', () => {
    const { shown, notifier } = setup();
    notifier.observe('funding.depositChanged', deposit('PEND'));
    notifier.observe('funding.depositChanged', deposit('TRACK', 'PEND'));
    notifier.observe('funding.depositChanged', deposit('DONE', 'DONE'));
    notifier.observe('funding.withdrawalChanged', withdrawal('REQUEST'));
    notifier.observe('funding.withdrawalChanged', withdrawal('PROCES', 'PEND'));
    expect(shown).toEqual([]);
  });

  it('tells a withdrawal sent on chain, done, cancelled and failed; a deposit credited or refused', () => {
    const { shown, notifier } = setup();
    notifier.observe('funding.withdrawalChanged', withdrawal('EXTPEND', 'PROCES'));
    notifier.observe('funding.withdrawalChanged', withdrawal('DONE', 'EXTPEND'));
    notifier.observe('funding.withdrawalChanged', withdrawal('CANCEL', 'REQUEST'));
    notifier.observe('funding.withdrawalChanged', withdrawal('FAIL', 'EXTPEND'));
    notifier.observe('funding.depositChanged', deposit('DEP_CREDITED', 'TRACK'));
    notifier.observe('funding.depositChanged', deposit('BLOCKED', 'TRACK'));
    expect(shown.map((n) => n.body)).toEqual([
      'Sent on chain, waiting for confirmations',
      'Done: the funds were sent',
      'Cancelled',
      'Failed on chain, awaiting confirmation of the failure',
      'Credited; withdrawals of it still locked',
      'Refused by the platform',
    ]);
    expect(shown[0]?.title).toBe('Withdrawal 0.015 BTC · Local sandbox');
  });

  it('tells pushes from the sender’s side, and only the arrival for the receiver', () => {
    const { shown, notifier } = setup();
    const push = (status: string, direction: 'withdraw' | 'deposit'): FundingChange => ({
      ...deposit(status, 'PENDING'),
      record: { id: 'p1', transactionType: direction, status },
    });
    notifier.observe('funding.pushChanged', push('REFUSED', 'withdraw'));
    notifier.observe('funding.pushChanged', push('RECEIVING', 'deposit'));
    notifier.observe('funding.pushChanged', push('RECEIVED', 'deposit'));
    expect(shown).toEqual([
      { title: 'Transfer to another user 1,250.5 USDT · Local sandbox', body: 'Refused by the receiver' },
      { title: 'Transfer from another user: 1,250.5 USDT · Local sandbox', body: 'Received in your spot account.' },
    ]);
  });

  it('never puts the address, memo, txid or any secret of the record into the text', () => {
    const { shown, notifier } = setup();
    for (const status of ['DONE', 'DEP_CREDITED', 'BLOCKED', 'INVALID', 'MANUAL']) {
      notifier.observe('funding.depositChanged', deposit(status, 'PEND'));
    }
    expect(shown.length).toBe(5);
    const text = JSON.stringify(shown);
    for (const leak of [SECRET, ADDRESS, 'memo-778', '0xabc123txid']) expect(text).not.toContain(leak);
  });

  it('is on by default; off, or a muted kind, gives none; the choice is stored', () => {
    const { shown, notifier, settings } = setup();
    expect(notifier.view()).toEqual({ settings: DEFAULT_NOTIFICATION_SETTINGS, available: true });

    notifier.setSettings({ ...DEFAULT_NOTIFICATION_SETTINGS, enabled: false });
    notifier.observe('funding.depositChanged', deposit('DONE', 'TRACK'));
    notifier.observe('funding.withdrawalChanged', withdrawal('DONE', 'EXTPEND'));
    expect(shown).toEqual([]);

    notifier.setSettings({ ...DEFAULT_NOTIFICATION_SETTINGS, deposits: false });
    expect(settings.get(SETTINGS_KEY, undefined)).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, deposits: false });
    notifier.observe('funding.depositChanged', deposit('DONE', 'TRACK'));
    notifier.observe('funding.withdrawalChanged', withdrawal('DONE', 'EXTPEND'));
    expect(shown.map((n) => n.title)).toEqual(['Withdrawal 0.015 BTC · Local sandbox']);
  });

  it('a muted profile gives none; other profiles still notify', () => {
    const { shown, notifier } = setup();
    notifier.setSettings({ ...DEFAULT_NOTIFICATION_SETTINGS, mutedProfiles: ['local-sandbox'] });
    notifier.observe('funding.depositChanged', deposit('DONE', 'TRACK'));
    notifier.observe('funding.withdrawalChanged', withdrawal('DONE', 'EXTPEND'));
    expect(shown).toEqual([]);
    notifier.observe('funding.depositChanged', { ...deposit('DONE', 'TRACK'), profileId: 'desk-2' });
    expect(shown.map((n) => n.title)).toEqual(['Deposit 1,250.5 USDT']);
  });

  it('below the minimum for its currency gives none; at or above gives one; other currencies always notify', () => {
    const { shown, notifier } = setup();
    notifier.setSettings({ ...DEFAULT_NOTIFICATION_SETTINGS, minAmounts: { USDT: '1250.5', BTC: '1' } });
    notifier.observe('funding.depositChanged', { ...deposit('DONE', 'TRACK'), amount: '1250.49999999' });
    notifier.observe('funding.withdrawalChanged', withdrawal('DONE', 'EXTPEND'));
    expect(shown).toEqual([]);
    notifier.observe('funding.depositChanged', deposit('DONE', 'TRACK'));
    expect(shown.map((n) => n.title)).toEqual(['Deposit 1,250.5 USDT · Local sandbox']);
    notifier.observe('funding.depositChanged', { ...deposit('DONE', 'TRACK'), amount: '1250.51' });
    notifier.observe('funding.depositChanged', { ...deposit('DONE', 'TRACK'), currency: 'ETH', amount: '0.0001' });
    expect(shown.map((n) => n.title).slice(1)).toEqual([
      'Deposit 1,250.51 USDT · Local sandbox',
      'Deposit 0.0001 ETH · Local sandbox',
    ]);
  });

  it('reads settings stored before profiles and minimums existed as none muted, no minimums', () => {
    const { notifier, settings, shown } = setup();
    settings.set(SETTINGS_KEY, { enabled: true, deposits: false, withdrawals: true, pushes: true });
    expect(notifier.settings()).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS, deposits: false });
    notifier.observe('funding.withdrawalChanged', withdrawal('DONE', 'EXTPEND'));
    expect(shown.length).toBe(1);
  });

  it('refuses a minimum that is not a plain decimal, keeping what was stored', () => {
    const { notifier } = setup();
    expect(() => notifier.setSettings({ ...DEFAULT_NOTIFICATION_SETTINGS, minAmounts: { BTC: '1e3' } })).toThrow();
    expect(notifier.settings()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('falls back to the defaults when the stored value is unreadable', () => {
    const { notifier, settings } = setup();
    settings.set(SETTINGS_KEY, { enabled: 'yes' });
    expect(notifier.settings()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('reports an unavailable capability and does not call it', () => {
    const { shown, notifier } = setup({ unavailableReason: 'notify-send is not installed' });
    expect(notifier.view()).toMatchObject({ available: false, unavailableReason: 'notify-send is not installed' });
    notifier.observe('funding.depositChanged', deposit('DONE', 'TRACK'));
    expect(shown).toEqual([]);
  });

  it('a capability that throws never breaks the caller', () => {
    const errors: string[] = [];
    const notifier = new FundingNotifier({
      settings: createSettings(openJournalDb(':memory:')),
      capability: {
        showOsNotification: () => {
          throw new Error('no daemon');
        },
      },
      profileName: () => 'P',
      logError: (op) => errors.push(op),
    });
    expect(() => notifier.observe('funding.depositChanged', deposit('DONE', 'TRACK'))).not.toThrow();
    expect(errors).toEqual(['notifications.show']);
  });
});
