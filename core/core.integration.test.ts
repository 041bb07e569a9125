/**
 * The core as the shells start it, against a real sandbox: profiles, the connection check,
 * journaled money movements, the audit log, history sync and watchers — through the IPC dispatcher.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { control } from '../sandbox/testing/harness';
import type { EventName } from '../shared/contract';
import { parseCsv } from '../shared/format/csv';
import type { Core } from './core';
import { type Db, openJournalDb } from './journal/db';
import { MemoryKeyStore } from './keychain/keyStore';
import type { ConfirmView } from './policies/confirm';
import { asRenderer, autoConfirm, startTestCore, TEST_ADMIN, withSandboxCore } from './testing/core';

const events: { name: EventName; payload: unknown }[] = [];
const desk = withSandboxCore({ core: { emit: (name, payload) => events.push({ name, payload }) }, downloads: true });
const { value } = desk;

const nowSec = () => Math.floor(Date.now() / 1000);

describe('profiles', () => {
  it('starts on the local sandbox, connected, with only a masked key', async () => {
    const list = await value<{ id: string; active: boolean; keyMask?: string; kind: string }[]>('profiles.list');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ kind: 'sandbox', active: true });
    expect(list[0]?.keyMask).toMatch(/…/);
    expect(JSON.stringify(list)).not.toContain(desk.sandbox.key);
    const status = await value<{ state: string; clockOffsetMs: number; limiter: { buckets: unknown[] } }>(
      'profiles.status',
    );
    expect(status.state).toBe('connected');
    expect(typeof status.clockOffsetMs).toBe('number');
    expect(events.some((e) => e.name === 'profiles.connectionChanged')).toBe(true);
  });

  it('the connection check classifies every aspect with reads only; the deep check alone sends write probes', async () => {
    type Check = {
      ok: boolean;
      deep?: boolean;
      checks: { name: string; outcome: string }[];
      permissions: Record<string, string>;
    };
    const check = await value<Check>('profiles.connectionCheck');
    expect(check.ok).toBe(true);
    expect(check.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['reachability', 'clock', 'signature', 'ipWhitelist', 'permissions', 'environment']),
    );
    expect(check.deep).toBe(false);
    // The sandbox's key has no IP whitelist: a warning with advice to bind it, never a green ok.
    expect(check.checks.find((c) => c.name === 'ipWhitelist')?.outcome).toBe('warning');
    expect(check.permissions).toEqual({ spot: 'read', wallet: 'read', withdrawal: 'read', subAccounts: 'read' });
    // Neither the check on connect nor this one wrote anything to the platform.
    expect(desk.core.ctx.audit.list({ text: 'permission probe' })).toHaveLength(0);

    const deep = await value<Check>('profiles.connectionCheck', { deep: true });
    expect(deep.deep).toBe(true);
    expect(deep.permissions).toMatchObject({ spot: 'read-write', wallet: 'read-write', withdrawal: 'read-write' });
    // The write probes are refused by design and say so in the audit log.
    const probes = desk.core.ctx.audit.list({ text: 'permission probe' });
    expect(probes.length).toBeGreaterThanOrEqual(4);
    expect(probes.every((p) => p.outcome === 'error')).toBe(true);
  });

  it('adds a profile, stores its key (masked), switches to it, sees the failure classified, and switches back', async () => {
    const added = await value<{ id: string }>('profiles.add', {
      kind: 'custom',
      name: 'Proxy (unreachable here)',
      baseUrl: 'https://127.0.0.1:9/api/v4',
    });
    const withKey = await value<{ keyMask: string }>('profiles.setKey', {
      id: added.id,
      key: 'abcd1234efgh5678',
      secret: 'SECRET-NEVER-SHOWN-123',
    });
    expect(withKey.keyMask).toBe('abcd…5678');
    const status = await value<{ state: string; lastError?: { message: string } }>('profiles.switch', { id: added.id });
    expect(status.state).toBe('error');
    expect(status.lastError?.message).toMatch(/could not be reached/);
    const refused = await desk.call('balances.total', { currency: 'USDT' });
    expect(refused.ok).toBe(false);
    const back = await value<{ state: string }>('profiles.switch', { id: 'local-sandbox' });
    expect(back.state).toBe('connected');
    expect((await value<{ removed: boolean }>('profiles.remove', { id: added.id })).removed).toBe(true);
    expect(JSON.stringify(await value('profiles.list'))).not.toContain('SECRET-NEVER-SHOWN');
  });

  it('refuses bad input without changing anything', async () => {
    const before = await value<unknown[]>('profiles.list');
    for (const input of [
      { kind: 'custom', name: 'x' }, // no address
      { kind: 'custom', name: 'x', baseUrl: 'http://proxy.example/api/v4' }, // not https
      { kind: 'live', name: 'x', baseUrl: 'https://evil.example/api/v4' }, // live's address is main's
      { kind: 'futures_alt', name: 'x', baseUrl: 'https://evil.example/api/v4' },
    ]) {
      const bad = await desk.call('profiles.add', input);
      expect(bad.ok, JSON.stringify(input)).toBe(false);
      if (!bad.ok) expect(bad.error.code).toBe('INVALID_INPUT');
    }
    expect(await value<unknown[]>('profiles.list')).toEqual(before);
  });

  it('live, testnet and the futures alternative connect only to main’s addresses; a key goes only to its host', async () => {
    const live = await value<{ id: string; baseUrl: string }>('profiles.add', { kind: 'live', name: 'Live' });
    expect(live.baseUrl).toBe('https://api.gateio.ws/api/v4');
    // No operation changes an address, and an address written into the database is ignored.
    const moved = await desk.call('profiles.update', { id: live.id, baseUrl: 'http://evil.example/api/v4' });
    expect(moved.ok).toBe(false);
    desk.core.db.prepare('UPDATE profiles SET base_url = ? WHERE id = ?').run('http://evil.example/api/v4', live.id);
    const listed = await value<{ id: string; baseUrl: string }[]>('profiles.list');
    expect(listed.find((p) => p.id === live.id)?.baseUrl).toBe('https://api.gateio.ws/api/v4');
    expect((await value<{ removed: boolean }>('profiles.remove', { id: live.id })).removed).toBe(true);

    // A custom endpoint's key is bound to the host it was saved for.
    const proxy = await value<{ id: string }>('profiles.add', {
      kind: 'custom',
      name: 'Proxy',
      baseUrl: 'https://127.0.0.1:9/api/v4',
    });
    await value('profiles.setKey', { id: proxy.id, key: 'abcd1234efgh5678', secret: 'SECRET-BOUND-TO-HOST' });
    desk.core.db.prepare('UPDATE profiles SET base_url = ? WHERE id = ?').run('https://127.0.0.2:9/api/v4', proxy.id);
    await value('profiles.switch', { id: proxy.id });
    expect(desk.core.profiles.active()?.baseUrl).toBe('https://127.0.0.2:9/api/v4');
    // The connection has no credentials at all: nothing signed can leave for the other host.
    expect(desk.core.ctx.platform().client.hasCredentials()).toBe(false);
    await value('profiles.switch', { id: 'local-sandbox' });
    await value('profiles.remove', { id: proxy.id });
  });
});

describe('money movements', () => {
  it('withdraw, push, own transfer, main↔sub and sub↔sub transfers: journaled, done, audited', async () => {
    const { movements } = desk.core.ctx;
    const api = desk.core.ctx.platform();
    const saved = (await api.wallet.savedAddresses({ currency: 'USDT', chain: 'TRX' })).find(
      (s) => s.verified === '1',
    )!;
    const other = await control<{ user_id: number }>(desk.sandbox, '/users', {});
    const subs = await api.subAccounts.list();
    // The deep check's write probe used POST /withdrawals' 3 s window: the sandbox forgets it (no wait;
    // advancing the clock instead would date these records after the wall-clock history ranges below).
    await control(desk.sandbox, '/rate_limits', { reset: true });
    const w = await movements.withdraw({ currency: 'USDT', chain: 'TRX', address: saved.address, amount: '15' });
    expect(w).toMatchObject({ state: 'done', kind: 'withdrawal', attempts: 1 });
    expect(w.platformId).toMatch(/^w/);
    expect(w.clientId).toMatch(/^td/);
    const p = await movements.push({ receive_uid: other.user_id, currency: 'USDT', amount: '2' });
    expect(p.state).toBe('done');
    const t = await movements.transfer({ currency: 'USDT', from: 'spot', to: 'futures', amount: '4', settle: 'usdt' });
    expect(t.state).toBe('done');
    const s = await movements.subAccountTransfer({
      sub_account: String(subs[0]!.user_id),
      currency: 'USDT',
      amount: '3',
      direction: 'to',
    });
    expect(s.state).toBe('done');
    const ss = await movements.subToSubTransfer({
      currency: 'USDT',
      sub_account_from: String(subs[0]!.user_id),
      sub_account_from_type: 'spot',
      sub_account_to: String(subs[1]!.user_id),
      sub_account_to_type: 'spot',
      amount: '1',
    });
    expect(ss.state).toBe('done');
    const listed = await value<{ id: string; state: string }[]>('activity.movements', {});
    expect(listed.map((m) => m.id)).toEqual(expect.arrayContaining([w.id, p.id, t.id, s.id, ss.id]));
    const withdrawals = await api.wallet.withdrawals({ withdraw_order_id: w.clientId });
    expect(withdrawals).toHaveLength(1);
    expect(events.filter((e) => e.name === 'activity.movementChanged').length).toBeGreaterThanOrEqual(10);
    const audit = await value<{ action: string; outcome: string; requestId: string }[]>('activity.auditLog', {
      action: 'POST /withdrawals',
    });
    expect(audit[0]).toMatchObject({ outcome: 'ok' });
    expect(audit[0]?.requestId).toMatch(/^td-/);
  });

  it('a refusal is failed with the platform label and advice; nothing is retried', async () => {
    const error = await desk.core.ctx.movements
      .transfer({ currency: 'USDT', from: 'spot', to: 'futures', amount: '99999999', settle: 'usdt' })
      .catch((e: unknown) => e as { toIpcError(): { code: string; label: string; advice: string } });
    const ipc = (error as { toIpcError(): { code: string; label: string; advice: string } }).toIpcError();
    expect(ipc).toMatchObject({ code: 'PLATFORM', label: 'BALANCE_NOT_ENOUGH' });
    const failed = desk.core.ctx.movements.list({ state: 'failed' });
    expect(failed[0]).toMatchObject({ label: 'BALANCE_NOT_ENOUGH', attempts: 1 });
  });

  it('a lost answer after the platform acted is settled by asking it, not by sending again', async () => {
    await control(desk.sandbox, '/advance', { seconds: 61 }); // one withdrawal per address and minute
    await control(desk.sandbox, '/faults', {
      rules: [{ method: 'POST', path: '/api/v4/withdrawals', kind: 'drop_after', times: 1 }],
    });
    const api = desk.core.ctx.platform();
    const saved = (await api.wallet.savedAddresses({ currency: 'USDT', chain: 'TRX' })).find(
      (s) => s.verified === '1',
    )!;
    const movement = await desk.core.ctx.movements.withdraw({
      currency: 'USDT',
      chain: 'TRX',
      address: saved.address,
      amount: '11',
    });
    expect(movement).toMatchObject({ state: 'done', attempts: 1 });
    expect(await api.wallet.withdrawals({ withdraw_order_id: movement.clientId })).toHaveLength(1);
  });

  it('a request that never arrived is sent again with the same id', async () => {
    await control(desk.sandbox, '/faults', {
      rules: [{ method: 'POST', path: '/api/v4/wallet/sub_account_transfers', kind: 'drop_before', times: 1 }],
    });
    const subs = await desk.core.ctx.platform().subAccounts.list();
    const movement = await desk.core.ctx.movements.subAccountTransfer({
      sub_account: String(subs[0]!.user_id),
      currency: 'USDT',
      amount: '2',
      direction: 'to',
    });
    expect(movement).toMatchObject({ state: 'done', attempts: 2 });
    const records = await desk.core.ctx.platform().wallet.subAccountTransfers({ sub_uid: String(subs[0]!.user_id) });
    expect(records.filter((r) => r.client_order_id === movement.clientId)).toHaveLength(1);
  });
});

describe('audit log', () => {
  it('is hash-chained: verify passes, and CSV export has every entry', async () => {
    const verify = await value<{ ok: boolean; entries: number }>('activity.verifyAudit');
    expect(verify.ok).toBe(true);
    expect(verify.entries).toBeGreaterThan(5);
    const csv = await value<{ csv: string; filename: string }>('activity.exportAuditCsv', {});
    expect(csv.filename).toMatch(/\.csv$/);
    expect(parseCsv(csv.csv)[0]).toContain('request_id');
    expect(csv.csv).toContain('POST /withdrawals');
    const movementsCsv = await value<{ csv: string }>('activity.exportMovementsCsv', {});
    expect(movementsCsv.csv.split('\r\n').length).toBeGreaterThan(6);
  });

  it('tampering shows: editing a row (bypassing the append-only guard) breaks the chain', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'td-audit-'));
    const { openJournalDb } = await import('./journal/db');
    const { createAuditLog } = await import('./journal/audit');
    const db = openJournalDb(dir);
    const log = createAuditLog(db, { key: Buffer.alloc(32, 7), activeProfileId: () => 'p' });
    log.record({ action: 'a', outcome: 'ok' });
    log.record({ action: 'b', outcome: 'ok', params: { secret: 'zzz', amount: '1' } });
    log.record({ action: 'c', outcome: 'ok' });
    expect(log.list()[1]?.params).not.toContain('zzz');
    expect(() => db.prepare("UPDATE audit SET action = 'x' WHERE seq = 2").run()).toThrow(/append-only/);
    db.exec('DROP TRIGGER audit_append_only_update');
    db.prepare('UPDATE audit SET params = \'{"amount":"1000"}\' WHERE seq = 2').run();
    expect(log.verify()).toEqual({ ok: false, brokenAtSeq: 2 });
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the audit log against the keychain, through the whole core', () => {
  const call = (core: Core, operation: string, payload: unknown = {}) => core.dispatch(operation, payload, asRenderer);
  /** Someone with a SQLite tool, on the stopped app's journal. */
  const editJournal = (dataDir: string, edit: (db: Db) => void) => {
    const db = openJournalDb(dataDir);
    db.exec('DROP TRIGGER audit_append_only_update; DROP TRIGGER audit_append_only_delete;');
    edit(db);
    db.close();
  };

  it('deleting the last entries is caught at start; every screen hears of it until an administrator acknowledges it after the confirmation', async () => {
    const first = await startTestCore(desk.sandbox);
    const { dataDir } = first;
    for (const [name, role] of [
      ['Val', 'viewer'],
      ['Mo', 'maker'],
      ['Ann', 'approver'],
    ] as const) {
      expect(
        await call(first.core, 'operators.create', { name, role, passphrase: `looks at the ${role} things` }),
      ).toMatchObject({ ok: true });
    }
    const last = first.core.ctx.audit.list({ limit: 1 })[0]?.seq ?? 0;
    await first.core.close();
    // The last two entries go (who was made maker and approver).
    editJournal(dataDir, (db) => db.prepare('DELETE FROM audit WHERE seq > ?').run(last - 2));

    const seen: { name: EventName; payload: unknown }[] = [];
    const views: ConfirmView[] = [];
    const again = await startTestCore(desk.sandbox, {
      dataDir,
      emit: (name, payload) => seen.push({ name, payload }),
      confirm: autoConfirm(views),
    });
    try {
      const failed = { ok: false, problem: expect.stringContaining('entries at its end were deleted') };
      expect(await call(again.core, 'activity.auditIntegrity')).toMatchObject({ ok: true, value: failed });
      expect(await call(again.core, 'activity.verifyAudit')).toMatchObject({ ok: true, value: failed });
      // The app works on, and says so in the log itself.
      expect(await call(again.core, 'balances.spot')).toMatchObject({ ok: true });
      expect(again.core.ctx.audit.list({ action: 'audit.checkFailed' })).toHaveLength(1);

      await call(again.core, 'operators.signIn', { name: 'Val', passphrase: 'looks at the viewer things' });
      expect(await call(again.core, 'activity.acknowledgeAuditFailure', {})).toMatchObject({
        ok: false,
        error: { code: 'NOT_ALLOWED' },
      });
      await call(again.core, 'operators.signIn', TEST_ADMIN);
      expect(
        await call(again.core, 'activity.acknowledgeAuditFailure', { note: 'Two entries lost; checked the platform.' }),
      ).toMatchObject({ ok: true, value: { ok: true } });
      expect(views.at(-1)).toMatchObject({
        action: 'auditAcknowledge',
        rows: expect.arrayContaining([{ label: 'What failed', value: failed.problem }]),
      });
      expect(seen.filter((e) => e.name === 'activity.auditIntegrityChanged').map((e) => e.payload)).toEqual([
        expect.objectContaining(failed),
        expect.objectContaining({ ok: true }),
      ]);
      expect(await call(again.core, 'activity.auditIntegrity')).toMatchObject({ ok: true, value: { ok: true } });
      expect(again.core.ctx.audit.list({ action: 'audit.failureAcknowledged' })[0]).toMatchObject({
        operator: TEST_ADMIN.name,
        params: expect.stringContaining('Two entries lost'),
      });
    } finally {
      await again.close();
    }
  });
});

describe('history sync', () => {
  it('fetches a year in 30-day windows, caches it, and the second run fetches nothing old', async () => {
    const from = nowSec() - 365 * 86400;
    const first = await value<{ syncId: string; windowsTotal: number }>('activity.startHistorySync', {
      kinds: ['deposits', 'withdrawals'],
      from,
      to: nowSec(),
    });
    expect(first.windowsTotal).toBe(2 * 13);
    const done = await desk.core.history.finished();
    expect(done?.state).toBe('done');
    expect(done?.records).toBeGreaterThanOrEqual(4);
    const cached = await value<{ records: { id: string }[]; complete: boolean }>('activity.history', {
      kinds: ['deposits'],
      from,
      to: nowSec(),
    });
    expect(cached.records.length).toBeGreaterThanOrEqual(3);
    const second = await value<{ windowsTotal: number }>('activity.startHistorySync', {
      kinds: ['deposits', 'withdrawals'],
      from,
      to: nowSec(),
    });
    expect(second.windowsTotal).toBeLessThanOrEqual(2 * 2); // only the still-changing recent window(s)
    await desk.core.history.finished();
    expect(events.some((e) => e.name === 'activity.historyProgress')).toBe(true);

    // The export writes every cached record of the period (no page cap), and says how many.
    const query = { kinds: ['deposits', 'withdrawals'], from, to: nowSec() };
    const all = await value<{ total: number }>('activity.history', { ...query, limit: 1 });
    const exportId = '4f6c0b1e-2a7d-4c1a-9d55-0a5c3e9b7f10';
    const saved = await value<{ path: string; rows: number }>('activity.exportHistoryCsv', {
      ...query,
      exportId,
      timeZone: 'UTC',
      suggestedName: 'history-money.csv',
    });
    expect(saved.rows).toBe(all.total);
    expect(path.dirname(saved.path)).toBe(desk.downloadsDir);
    const text = fs.readFileSync(saved.path, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const records = parseCsv(text);
    expect(records[0]).toEqual(['Time (UTC)', 'Kind', 'ID', 'Currency', 'Amount', 'Status']);
    expect(records).toHaveLength(all.total + 1);
    const progress = events.filter((e) => e.name === 'activity.exportProgress').map((e) => e.payload);
    expect(progress.at(-1)).toEqual({ exportId, written: all.total, total: all.total, state: 'done' });

    // Cancelled from the screen: it stops, the partly written file goes, and it says so.
    const stop = new AbortController();
    stop.abort();
    const cancelledId = '6a1d2c3b-4e5f-4a7b-8c9d-0e1f2a3b4c5d';
    const before = fs.readdirSync(desk.downloadsDir);
    const cancelled = await desk.call(
      'activity.exportHistoryCsv',
      { ...query, exportId: cancelledId, timeZone: 'UTC', suggestedName: 'history-cancelled.csv' },
      { signal: stop.signal },
    );
    expect(cancelled).toEqual({ ok: true, value: { cancelled: true } });
    expect(fs.readdirSync(desk.downloadsDir)).toEqual(before);
    const stopped = events.filter(
      (e) => e.name === 'activity.exportProgress' && (e.payload as { exportId: string }).exportId === cancelledId,
    );
    expect(stopped.at(-1)?.payload).toMatchObject({ exportId: cancelledId, state: 'cancelled' });
  });

  it('syncs trades, transfers and pushes too', async () => {
    await value('activity.startHistorySync', {
      kinds: ['trades', 'subAccountTransfers', 'pushes'],
      from: nowSec() - 40 * 86400,
      to: nowSec(),
    });
    const done = await desk.core.history.finished();
    expect(done).toMatchObject({ state: 'done', windowsTotal: 6 });
    const transfers = await value<{ records: unknown[] }>('activity.history', {
      kinds: ['subAccountTransfers'],
      from: nowSec() - 40 * 86400,
      to: nowSec() + 86400,
    });
    expect(transfers.records.length).toBeGreaterThan(0);
  });

  it('can be cancelled and keeps what it fetched', async () => {
    const started = await value<{ syncId: string }>('activity.startHistorySync', {
      kinds: ['trades'],
      from: nowSec() - 5 * 365 * 86400,
      to: nowSec(),
    });
    await value('activity.cancelHistorySync', { syncId: started.syncId });
    const last = await desk.core.history.finished();
    expect(['cancelled', 'done']).toContain(last?.state);
  });
});

describe('watchers', () => {
  it('turn a withdrawal status change into a funding.withdrawalChanged event and follow it in the journal', async () => {
    const { Watchers } = await import('./watchers/watchers');
    const seen: { name: string; payload: { status: string; previousStatus?: string; clientId?: string } }[] = [];
    const watchers = new Watchers({
      platform: () => desk.core.ctx.platform(),
      profile: () => desk.core.ctx.activeProfile(),
      movements: desk.core.ctx.movements,
      emit: (name, payload) => seen.push({ name, payload: payload as never }),
      intervalMs: 0,
    });
    watchers.restart();
    await watchers.pollOnce();
    const api = desk.core.ctx.platform();
    const saved = (await api.wallet.savedAddresses({ currency: 'USDT', chain: 'TRX' })).find(
      (s) => s.verified === '1',
    )!;
    await control(desk.sandbox, '/advance', { seconds: 61 }); // one withdrawal per address and minute
    const movement = await desk.core.ctx.movements.withdraw({
      currency: 'USDT',
      chain: 'TRX',
      address: saved.address,
      amount: '12',
    });
    await watchers.pollOnce();
    await control(desk.sandbox, '/advance', { seconds: 3600 });
    await watchers.pollOnce();
    const mine = seen.filter((e) => e.name === 'funding.withdrawalChanged' && e.payload.clientId === movement.clientId);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.at(-1)?.payload.previousStatus).toBeDefined();
    expect(desk.core.ctx.movements.get(movement.id)?.platformStatus).toBe(mine.at(-1)?.payload.status);
    watchers.stop();
  });
});

describe('first start with the embedded sandbox', () => {
  it('starts the built-in sandbox in the data directory, stores its key in the keychain and connects', async () => {
    const embedded = { mode: 'embedded', clock: 'manual', market: 'off' } as const;
    const keyStore = new MemoryKeyStore();
    const first = await startTestCore(embedded, { keyStore });
    try {
      expect(first.core.profiles.status().state).toBe('connected');
      expect(fs.existsSync(path.join(first.dataDir, 'sandbox', 'sandbox.sqlite'))).toBe(true);
      expect((await keyStore.get('profile:local-sandbox'))?.secret).toBeTruthy();
      expect((await first.core.ctx.platform().spot.accounts()).length).toBeGreaterThan(0);
    } finally {
      // Only the core stops: the second start reopens this data directory.
      await first.core.close();
    }
    // Second start: same sandbox data, same key from the keychain.
    const second = await startTestCore(embedded, { keyStore, dataDir: first.dataDir });
    try {
      expect(second.core.profiles.status().state).toBe('connected');
    } finally {
      await second.close();
    }
  });
});

describe('sub-account to sub-account transfers', () => {
  it('a lost answer stays unknown (never resent) until a person settles it', async () => {
    await control(desk.sandbox, '/faults', {
      rules: [{ method: 'POST', path: '/api/v4/wallet/sub_account_to_sub_account', kind: 'drop_after', times: 1 }],
    });
    const subs = await desk.core.ctx.platform().subAccounts.list();
    const error = await desk.core.ctx.movements
      .subToSubTransfer({
        currency: 'USDT',
        sub_account_from: String(subs[0]!.user_id),
        sub_account_from_type: 'spot',
        sub_account_to: String(subs[1]!.user_id),
        sub_account_to_type: 'spot',
        amount: '0.5',
      })
      .catch((e: { detail?: { code: string } }) => e);
    expect((error as { detail: { code: string } }).detail.code).toBe('OUTCOME_UNKNOWN');
    const [movement] = desk.core.ctx.movements.list({ kind: 'subToSubTransfer', state: 'unknown' });
    expect(movement?.attempts).toBe(1);
    await desk.core.ctx.movements.reconcile();
    expect(desk.core.ctx.movements.get(movement!.id)?.attempts).toBe(1);
    const settled = await value<{ state: string }>('activity.resolveMovement', {
      id: movement!.id,
      outcome: 'done',
      note: 'both balances show the transfer',
    });
    expect(settled.state).toBe('done');
  });
});

describe('balance snapshots', () => {
  it('a total-balance snapshot is stored per profile and minute for the charts', async () => {
    const { Watchers } = await import('./watchers/watchers');
    const watchers = new Watchers({
      platform: () => desk.core.ctx.platform(),
      profile: () => desk.core.ctx.activeProfile(),
      movements: desk.core.ctx.movements,
      emit: () => {},
      intervalMs: 0,
      snapshots: desk.core.ctx.snapshots,
      snapshotIntervalMs: 0,
    });
    await watchers.snapshotOnce();
    await watchers.snapshotOnce();
    const list = desk.core.ctx.snapshots.list();
    expect(list.length).toBeGreaterThanOrEqual(1);
    expect(list.at(-1)).toMatchObject({ currency: 'USDT', profileId: 'local-sandbox' });
    expect(Number(list.at(-1)?.total)).toBeGreaterThan(0);
    expect(Object.keys(list.at(-1)?.byAccount ?? {})).toContain('spot');
  });
});

describe('external sandbox by control URL', () => {
  it('asks the sandbox for a fresh account and connects with it', async () => {
    const other = await startTestCore({
      mode: 'external-control',
      controlUrl: desk.sandbox.controlUrl,
      controlToken: desk.sandbox.controlToken,
    });
    try {
      expect(other.core.profiles.status().state).toBe('connected');
      const check = other.core.profiles.lastConnectionCheck();
      expect(check?.userId).toBeGreaterThan(0);
      expect(check?.userId).not.toBe(desk.sandbox.userId);
    } finally {
      await other.close();
    }
  });
});

describe('intents left by a crash', () => {
  const insert = (id: string, state: string, createdAt: number, params: object) =>
    desk.core.db
      .prepare(
        `INSERT INTO intents (id, profile_id, kind, state, client_id, currency, amount, params, attempts, created_at, updated_at, sent_at)
         VALUES (?, 'local-sandbox', 'subAccountTransfer', ?, ?, 'USDT', '0.7', ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        state,
        `tdcrash${id}`,
        JSON.stringify(params),
        state === 'prepared' ? 0 : 1,
        createdAt,
        createdAt,
        state === 'prepared' ? null : createdAt,
      );

  it('a recent intent that never left is sent on start; an old one is abandoned, never sent late', async () => {
    const subs = await desk.core.ctx.platform().subAccounts.list();
    const params = { sub_account: String(subs[0]!.user_id), currency: 'USDT', amount: '0.7', direction: 'to' };
    insert('recent', 'prepared', Date.now() - 1_000, params);
    insert('old', 'sent', Date.now() - 11 * 60_000, params);
    await desk.core.ctx.movements.reconcile();
    expect(desk.core.ctx.movements.get('recent')).toMatchObject({ state: 'done', attempts: 1 });
    expect(desk.core.ctx.movements.get('old')).toMatchObject({ state: 'failed', label: 'NEVER_EXECUTED', attempts: 1 });
    const records = await desk.core.ctx.platform().wallet.subAccountTransfers({ sub_uid: String(subs[0]!.user_id) });
    expect(records.filter((r) => r.client_order_id === 'tdcrashrecent')).toHaveLength(1);
    expect(records.filter((r) => r.client_order_id === 'tdcrashold')).toHaveLength(0);
  });
});
