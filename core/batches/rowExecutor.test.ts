/**
 * A batch row in a team whose attempt this desk's own rate limiter held back (docs/bulk.md, "Rows in
 * a team"): the attempt failed here without leaving the desk, and the team gave the movement back to
 * its queue to be sent later, by this desk or another. The row must not show `failed` meanwhile — an
 * operator would send it again by hand, and the money would move twice. The runner, its store and
 * the row executor are real; the journals and the command are what a desk's team route leaves behind
 * (teamDesk/route.ts, sender.ts), and time is the manual scheduler's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchRowInput } from '../../shared/contract/bulk';
import type { MovementCommands } from '../commands/movements';
import { DeskFailure } from '../errors';
import { openJournalDb } from '../journal/db';
import type { Movement } from '../movements/types';
import { REQUEUED_MESSAGE } from '../teamDesk/sender';
import { ManualScheduler } from '../testing/scheduler';
import {
  createRowExecutor,
  FOLLOWING_TEAM_MESSAGE,
  NEVER_IN_TEAM_MESSAGE,
  TEAM_NOT_ASKED_MESSAGE,
  type TeamSettledMovement,
} from './rowExecutor';
import { BatchRunner } from './runner';
import { BatchStore } from './store';

/** A payment leaving the firm: the row an operator would send again by hand if it showed failed. */
const ROW: BatchRowInput = {
  type: 'withdrawal',
  currency: 'USDT',
  amount: '2500',
  chain: 'TRX',
  address: 'T0001SupplierPayoutAddrxxxxxxxxxxxxx',
};
const POLL_MS = 1_000;
const CLIENT_ID = 'tdmakersignedid';

/** A movement of this desk's journal (the row's withdrawal), as the engine keeps it. */
const localMovement = (m: Pick<Movement, 'id' | 'state'> & Partial<Movement>): Movement => ({
  profileId: 'p1',
  kind: 'withdrawal',
  clientId: CLIENT_ID,
  currency: 'USDT',
  amount: '2500',
  params: {},
  attempts: 1,
  createdAt: 0,
  updatedAt: 0,
  operator: 'Alice',
  ...m,
});

/** This desk's attempt of a request key, journaled failed with a label and message. */
const failedHere = (requestKey: string, label: string, message: string): Movement =>
  localMovement({ id: `local-${requestKey}`, state: 'failed', label, message });

/** What this desk's journal keeps of an attempt its limiter held back (api/client.ts RATE_LIMIT_WAIT). */
const heldBackAttempt = (requestKey: string): Movement =>
  failedHere(requestKey, 'RATE_LIMIT_WAIT', "the app's rate limit for withdrawals had no free slot after 15 s");

const schedulers: ManualScheduler[] = [];
afterEach(() => {
  for (const s of schedulers.splice(0)) s.close();
});

/**
 * A batch of one row on a desk in a team (or alone, `inTeam: false`). Its first submit meets a
 * saturated limiter: the attempt is journaled failed here and the movement given back to the team's
 * queue (sendClaimed's answer). `submit` replaces that first answer.
 */
const setUp = (o: { inTeam?: boolean; submit?: MovementCommands['submit']; local?: Map<string, Movement> } = {}) => {
  const scheduler = new ManualScheduler();
  schedulers.push(scheduler);
  const store = new BatchStore(openJournalDb(':memory:'), () => scheduler.wallNow());
  const local = o.local ?? new Map<string, Movement>();
  /** The team journal's final movements; `teamOpen` its keys still open; `team.away` the database. */
  const teamJournal = new Map<string, TeamSettledMovement>();
  const teamOpen = new Set<string>();
  const team = { away: false };
  const submitted: string[] = [];
  const heldBackSubmit: MovementCommands['submit'] = async (_kind, _request, { requestKey }) => {
    local.set(requestKey, heldBackAttempt(requestKey));
    return {
      state: 'unknown',
      failure: new DeskFailure({ code: 'OUTCOME_UNKNOWN', delivery: 'not_sent', message: REQUEUED_MESSAGE }),
    };
  };
  const executor = createRowExecutor({
    movements: { byRequestKey: (key) => local.get(key) },
    team: {
      active: () => o.inTeam ?? true,
      movementNow: async (key) => {
        const final = teamJournal.get(key);
        if (team.away) return { state: 'unknown' };
        if (final) return { state: 'final', movement: final };
        return { state: teamOpen.has(key) ? 'open' : 'absent' };
      },
    },
    commands: {
      submit: async (kind, request, options) => {
        submitted.push(options.requestKey);
        return (o.submit ?? heldBackSubmit)(kind, request, options);
      },
    },
    originOf: (batchId, row) => ({
      kind: 'batch',
      batchId,
      batchName: 'test',
      row,
      confirmedAt: 0,
      confirmedBy: 'Alice',
    }),
  });
  const runner = new BatchRunner({
    store,
    executor,
    activeProfile: () => 'p1',
    onChange: () => undefined,
    scheduler,
    pollMs: POLL_MS,
    laneConcurrency: 1,
  });
  const id = store.create({ profileId: 'p1', kind: 'csv', name: 'test', rows: [{ row: 1, input: ROW }] });
  const key = store.row(id, 1)!.request_key;
  const row = () => store.row(id, 1)!;
  return { scheduler, store, runner, local, teamJournal, teamOpen, team, submitted, id, key, row, heldBackSubmit };
};

describe('a batch row in a team, its attempt held back by this desk’s rate limiter', () => {
  it('is followed, not failed, while the team can still send it, and shows done once another desk did', async () => {
    const { scheduler, store, runner, teamJournal, id, key, row } = setUp();
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'checking', message: REQUEUED_MESSAGE });
    // The runner looks it up every poll: this desk's journal says failed, the team's movement is open.
    for (let i = 0; i < 3; i++) await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'checking', message: REQUEUED_MESSAGE });
    expect(store.batch(id)?.state).toBe('running');

    teamJournal.set(key, {
      id: 'mv_team',
      state: 'done',
      clientId: CLIENT_ID,
      platformId: 'tr_42',
      label: null,
      message: null,
    });
    await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'done', platform_id: 'tr_42', message: 'Sent by another desk of the team.' });
    expect(store.batch(id)?.state).toBe('finished');
  });

  it('shows this desk’s own later attempt (journaled under key#2) once the team gave it back here', async () => {
    const { scheduler, runner, local, id, key, row } = setUp();
    runner.start(id);
    await scheduler.idle();
    local.set(`${key}#2`, localMovement({ id: 'local-second', state: 'done', platformId: 'tr_7' }));
    await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'done', movement_id: 'local-second', platform_id: 'tr_7' });
  });

  it('sent again after a restart (the row found `sending`), another desk holding it: still followed, not failed', async () => {
    const { scheduler, store, runner, local, id, key, row, submitted } = setUp({
      // The team route's answer for a key another desk holds now (route.ts).
      submit: async () => {
        throw new DeskFailure({
          code: 'OUTCOME_UNKNOWN',
          delivery: 'unknown',
          message: 'It is being sent by another desk of the team.',
        });
      },
    });
    local.set(key, heldBackAttempt(key));
    store.updateRow(id, 1, { state: 'sending' });
    store.setState(id, 'running');
    runner.resumeAll();
    await scheduler.idle();
    expect(submitted).toEqual([key]);
    expect(row().state).toBe('checking');
    await scheduler.advance(POLL_MS);
    expect(row().state).toBe('checking');
  });

  it('is failed when the team’s movement is final-failed', async () => {
    const { scheduler, runner, teamJournal, id, key, row } = setUp();
    runner.start(id);
    await scheduler.idle();
    teamJournal.set(key, {
      id: 'mv_team',
      state: 'failed',
      clientId: CLIENT_ID,
      platformId: null,
      label: 'INSUFFICIENT_BALANCE',
      message: 'Not enough USDT.',
    });
    await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'failed', label: 'INSUFFICIENT_BALANCE', message: 'Not enough USDT.' });
  });

  it('alone (no team to send it later), a held-back attempt is failed at once: it was never sent', async () => {
    const { scheduler, runner, id, key, row, heldBackSubmit } = setUp({
      inTeam: false,
      // Alone the engine answers with its failed movement (nothing gives it back to a queue).
      submit: async (kind, request, options) => {
        await heldBackSubmit(kind, request, options);
        return { state: 'refused', movement: heldBackAttempt(key), failure: new Error('held back') };
      },
    });
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'failed', label: 'RATE_LIMIT_WAIT' });
  });
});

/** Another desk of the team sent the row's movement: the team journal's final state. */
const sentByAnotherDesk = (): TeamSettledMovement => ({
  id: 'mv_team',
  state: 'done',
  clientId: CLIENT_ID,
  platformId: 'tr_9',
  label: null,
  message: null,
});

/** The platform refused this desk's attempt (journaled failed here with the platform's label). */
const refusedHere = (requestKey: string): Movement =>
  failedHere(requestKey, 'TEMPORARILY_UNAVAILABLE', 'Withdrawals are paused on this chain.');

describe('a batch row in a team whose call failed here while the team’s movement is open', () => {
  /** (a) An error that is not a DeskFailure, nothing journaled on this desk. */
  const unexpected: MovementCommands['submit'] = async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'id')");
  };
  /**
   * (b) The platform refused this desk's attempt; its write-back to the team database waited out an
   * outage, the lease ran out and another desk took the movement over.
   */
  const refused =
    (local: Map<string, Movement>): MovementCommands['submit'] =>
    async (_kind, _request, { requestKey }) => {
      const movement = refusedHere(requestKey);
      local.set(requestKey, movement);
      return {
        state: 'refused',
        movement,
        failure: new DeskFailure({
          code: 'PLATFORM',
          delivery: 'not_sent',
          label: 'TEMPORARILY_UNAVAILABLE',
          message: 'Withdrawals are paused on this chain.',
        }),
      };
    };

  it('(a) an unexpected error: checking while the team sends it, then done as the team journal says', async () => {
    const { scheduler, runner, teamOpen, teamJournal, id, key, row } = setUp({ submit: unexpected });
    teamOpen.add(key);
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'checking', message: FOLLOWING_TEAM_MESSAGE });
    await scheduler.advance(POLL_MS);
    expect(row().state).toBe('checking');
    teamJournal.set(key, sentByAnotherDesk());
    await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'done', platform_id: 'tr_9' });
  });

  it('(a) an unexpected error while the team database is away: checking (it may be open), not failed', async () => {
    const { scheduler, runner, team, teamJournal, id, key, row } = setUp({ submit: unexpected });
    team.away = true;
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'checking', message: TEAM_NOT_ASKED_MESSAGE });
    await scheduler.advance(POLL_MS);
    expect(row().state).toBe('checking');
    team.away = false;
    teamJournal.set(key, sentByAnotherDesk());
    await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'done', platform_id: 'tr_9' });
  });

  it('(a) the team database back, and the team journal never had it: failed (nothing sent it)', async () => {
    const { scheduler, runner, team, store, id, row } = setUp({ submit: unexpected });
    team.away = true;
    runner.start(id);
    await scheduler.idle();
    expect(row().state).toBe('checking');
    team.away = false;
    await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'failed', message: NEVER_IN_TEAM_MESSAGE });
    expect(store.batch(id)?.state).toBe('finished');
  });

  it('a call that may pass later (waiting for an approval), nothing journaled anywhere: waits, not failed', async () => {
    const awaitingApproval: MovementCommands['submit'] = async () => {
      throw new DeskFailure({
        code: 'AWAITING_APPROVAL',
        delivery: 'not_sent',
        message: 'Waiting for a second operator’s approval.',
      });
    };
    const { scheduler, runner, id, row } = setUp({ submit: awaitingApproval });
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'pending', message: 'Waiting for a second operator’s approval.' });
  });

  it('(a) an unexpected error, the team journal has nothing of it: failed at once', async () => {
    const { scheduler, runner, id, row } = setUp({ submit: unexpected });
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'failed', message: 'Unexpected error.' });
  });

  it('(b) refused here while another desk took the movement over: checking, not failed, poll after poll', async () => {
    const local = new Map<string, Movement>();
    const { scheduler, runner, teamOpen, teamJournal, id, key, row } = setUp({ local, submit: refused(local) });
    teamOpen.add(key);
    runner.start(id);
    await scheduler.idle();
    expect(local.get(key)?.state).toBe('failed');
    expect(row()).toMatchObject({ state: 'checking', message: FOLLOWING_TEAM_MESSAGE });
    // The runner looks it up every poll: this desk's journal says failed, the team's movement is open.
    for (let i = 0; i < 3; i++) await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'checking', message: FOLLOWING_TEAM_MESSAGE });
    teamJournal.set(key, sentByAnotherDesk());
    await scheduler.advance(POLL_MS);
    expect(row()).toMatchObject({ state: 'done', platform_id: 'tr_9' });
  });

  it('(b) refused here and the team’s movement final-failed: failed, with the platform’s refusal', async () => {
    const local = new Map<string, Movement>();
    const { scheduler, runner, teamJournal, id, key, row } = setUp({ local, submit: refused(local) });
    teamJournal.set(key, {
      id: 'mv_team',
      state: 'failed',
      clientId: CLIENT_ID,
      platformId: null,
      label: 'TEMPORARILY_UNAVAILABLE',
      message: 'Withdrawals are paused on this chain.',
    });
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'failed', label: 'TEMPORARILY_UNAVAILABLE' });
  });

  it('alone, an unexpected error is failed at once (no team sends it)', async () => {
    const { scheduler, runner, id, row } = setUp({ inTeam: false, submit: unexpected });
    runner.start(id);
    await scheduler.idle();
    expect(row()).toMatchObject({ state: 'failed', message: 'Unexpected error.' });
  });
});
