import { beforeEach, describe, expect, it } from 'vitest';
import { notify, useNotices } from './notify';

beforeEach(() => useNotices.setState({ notices: [], history: [], unread: [] }));

describe('notify', () => {
  it('a newer notice about the same record replaces the older one', () => {
    notify({ tone: 'info', title: 'Withdrawal of 100 USDT in progress', key: 'withdrawal:w1' });
    notify({ tone: 'info', title: 'Deposit of 5 BTC in progress', key: 'deposit:d1' });
    notify({ tone: 'good', title: 'Withdrawal of 100 USDT completed', key: 'withdrawal:w1' });
    expect(useNotices.getState().notices.map((n) => n.title)).toEqual([
      'Deposit of 5 BTC in progress',
      'Withdrawal of 100 USDT completed',
    ]);
  });

  it('notices without a key all stay in the centre; at most three toasts show at once', () => {
    for (let i = 1; i <= 7; i++) notify({ tone: 'info', title: `Notice ${i}` });
    expect(useNotices.getState().notices.map((n) => n.title)).toEqual(['Notice 5', 'Notice 6', 'Notice 7']);
    expect(useNotices.getState().history).toHaveLength(7);
  });
});
