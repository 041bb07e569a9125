/**
 * The batch runner's pauses on the core's scheduler: a row that could not be sent is tried again
 * after the retry pause, a batch of another profile waits for it, rows whose answer was lost are
 * looked up until the journal settles them — all in manual time, nothing waits for real.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchRowInput, BatchSummary } from '../../shared/contract/bulk';
import { openJournalDb } from '../journal/db';
import { ManualScheduler } from '../testing/scheduler';
import { BatchRunner, type RowExecutor, type RowOutcome } from './runner';
import { BatchStore } from './store';

const ROW: BatchRowInput = {
  type: 'transfer',
  currency: 'USDT',
  amount: '10',
  from: { owner: 'main', account: 'spot' },
  to: { owner: 'main', account: 'margin', pair: 'BTC_USDT' },
};
const POLL_MS = 1_000;
const RETRY_MS = 3_000;

const schedulers: ManualScheduler[] = [];
afterEach(() => {
  for (const s of schedulers.splice(0)) s.close();
});

/** A runner on a journal in memory; `answers` says what each attempt returns, `lookups` each lookup. */
const setUp = (o: {
  answers: (RowOutcome | Promise<RowOutcome>)[];
  lookups?: (RowOutcome | undefined)[];
  /** Instead of `lookups`: the executor's lookup itself. */
  lookup?: RowExecutor['lookup'];
  profile?: () => string;
  /** Rows in the batch, all in one lane, sent one after the other (default 1). */
  rows?: number;
}) => {
  const scheduler = new ManualScheduler();
  schedulers.push(scheduler);
  const store = new BatchStore(openJournalDb(':memory:'), () => scheduler.wallNow());
  const attempts: string[] = [];
  const executor: RowExecutor = {
    execute: async (_input, requestKey) => {
      attempts.push(requestKey);
      return o.answers.shift() ?? { state: 'done' };
    },
    lookup: o.lookup ?? (async () => o.lookups?.shift()),
  };
  const events: BatchSummary[] = [];
  const runner = new BatchRunner({
    store,
    executor,
    activeProfile: o.profile ?? (() => 'p1'),
    onChange: (summary) => events.push(summary),
    scheduler,
    pollMs: POLL_MS,
    retryMs: RETRY_MS,
    laneConcurrency: 1,
  });
  const rows = Array.from({ length: o.rows ?? 1 }, (_, i) => ({ row: i + 1, input: ROW }));
  const id = store.create({ profileId: 'p1', kind: 'csv', name: 'test', rows });
  return { scheduler, store, runner, attempts, events, id };
};

describe('the batch runner on the scheduler', () => {
  it('tries a row that could not be sent again after the retry pause, with the same key, and finishes', async () => {
    const { scheduler, store, runner, attempts, id } = setUp({
      answers: [{ state: 'retry', message: 'Not connected.' }, { state: 'done' }],
    });
    runner.start(id);
    await scheduler.idle();
    expect(attempts).toHaveLength(1);
    expect(runner.note(id)).toBe('Not connected.');
    await scheduler.advance(RETRY_MS - 1);
    expect(attempts).toHaveLength(1);
    await scheduler.advance(1);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]).toBe(attempts[0]);
    expect(store.batch(id)?.state).toBe('finished');
    expect(store.counts(id)).toMatchObject({ done: 1 });
  });

  it('tries a row waiting out its retry pause again at once when woken (the team database answers again)', async () => {
    const { scheduler, store, runner, attempts, id } = setUp({
      answers: [{ state: 'retry', message: 'The team database is unavailable.' }, { state: 'done' }],
    });
    runner.start(id);
    await scheduler.idle();
    expect(attempts).toHaveLength(1);
    runner.wake();
    await scheduler.idle();
    expect(attempts).toHaveLength(2);
    expect(attempts[1]).toBe(attempts[0]);
    expect(store.batch(id)?.state).toBe('finished');
  });

  it('holds a batch of another profile, looking again every poll, and runs it once its profile is active', async () => {
    let active = 'p2';
    const { scheduler, store, runner, attempts, id } = setUp({ answers: [], profile: () => active });
    runner.start(id);
    await scheduler.advance(5 * POLL_MS);
    expect(attempts).toHaveLength(0);
    expect(runner.note(id)).toContain('another profile');
    active = 'p1';
    await scheduler.advance(POLL_MS);
    expect(attempts).toHaveLength(1);
    expect(store.batch(id)?.state).toBe('finished');
    expect(runner.note(id)).toBeUndefined();
  });

  it('looks a row whose answer was lost up every poll until the journal settles it, then stops looking', async () => {
    const { scheduler, store, runner, attempts, id } = setUp({
      answers: [{ state: 'checking', message: 'Checking with the platform.' }],
      lookups: [
        { state: 'checking', message: 'Checking with the platform.' },
        { state: 'done', movementId: 'm1' },
      ],
    });
    runner.start(id);
    await scheduler.idle();
    expect(store.counts(id)).toMatchObject({ checking: 1 });
    await scheduler.advance(POLL_MS);
    expect(store.counts(id)).toMatchObject({ checking: 1 });
    await scheduler.advance(POLL_MS);
    expect(store.counts(id)).toMatchObject({ checking: 0, done: 1 });
    expect(store.batch(id)?.state).toBe('finished');
    expect(attempts).toHaveLength(1); // looked up, never sent again
    await scheduler.advance(POLL_MS);
    expect(scheduler.pendingTimers()).toBe(0);
  });

  it('looks a row being checked up at once when a movement is settled (followNow), not at the next poll', async () => {
    const { scheduler, store, runner, id } = setUp({
      answers: [{ state: 'checking', message: 'Checking with the platform.' }],
      lookups: [{ state: 'done', movementId: 'm1' }],
    });
    runner.start(id);
    await scheduler.idle();
    expect(store.counts(id)).toMatchObject({ checking: 1 });
    runner.followNow();
    await scheduler.idle();
    expect(store.counts(id)).toMatchObject({ checking: 0, done: 1 });
    expect(store.batch(id)?.state).toBe('finished');
  });

  it('looks a row being checked up at once when woken (the team database back), not at the next poll', async () => {
    const { scheduler, store, runner, id } = setUp({
      answers: [{ state: 'checking', message: 'It is being sent by another desk of the team.' }],
      lookups: [{ state: 'done', movementId: 'm1' }],
    });
    runner.start(id);
    await scheduler.idle();
    expect(store.counts(id)).toMatchObject({ checking: 1 });
    runner.wake();
    await scheduler.idle();
    expect(store.counts(id)).toMatchObject({ checking: 0, done: 1 });
    expect(store.batch(id)?.state).toBe('finished');
  });

  it('runs one look-up round at a time: a slow look-up (the team database) is not asked again by the next poll', async () => {
    let answer!: (outcome: RowOutcome | undefined) => void;
    let lookups = 0;
    const { scheduler, store, runner, id } = setUp({
      answers: [{ state: 'checking', message: 'It is being sent by another desk of the team.' }],
      lookup: () => {
        lookups++;
        return new Promise((resolve) => {
          answer = resolve;
        });
      },
    });
    runner.start(id);
    await scheduler.idle();
    await scheduler.advance(POLL_MS);
    expect(lookups).toBe(1);
    await scheduler.advance(3 * POLL_MS);
    expect(lookups).toBe(1);
    answer({ state: 'done', movementId: 'm1' });
    await scheduler.idle();
    expect(store.counts(id)).toMatchObject({ checking: 0, done: 1 });
  });

  it('sends a batch’s progress at most four times a second, and a change of state at once', async () => {
    let answer!: (outcome: RowOutcome) => void;
    const held = new Promise<RowOutcome>((resolve) => {
      answer = resolve;
    });
    const { scheduler, runner, events, id } = setUp({ answers: [{ state: 'done' }, held], rows: 2 });
    runner.start(id);
    await scheduler.idle();
    // The first row is done, the second out: the count waits out the 250 ms since "running".
    expect(events.map((e) => [e.state, e.counts.done])).toEqual([['running', 0]]);
    await scheduler.advance(249);
    expect(events).toHaveLength(1);
    await scheduler.advance(1);
    expect(events.map((e) => [e.state, e.counts.done])).toEqual([
      ['running', 0],
      ['running', 1],
    ]);
    answer({ state: 'done' });
    await scheduler.idle();
    expect(events.map((e) => [e.state, e.counts.done]).at(-1)).toEqual(['finished', 2]);
  });
});
