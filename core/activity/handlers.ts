import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DeskHandlers } from '../../shared/contract';
import type { ExportProgress } from '../../shared/contract/activity';
import { CSV_BOM, csvLine, toCsv } from '../../shared/format/csv';
import { historyCsvFields, historyCsvHeader } from '../../shared/format/history';
import { pushTimeline, withdrawalTimeline } from '../../shared/platform/timelines';
import { cannotWrite, openExportFile } from '../app/handlers';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import type { CoreInternals } from '../internals';
import type { Movement } from '../movements/types';

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);

/**
 * What became of a movement, as an accountant reads it: completed, cancelled, failed, in progress,
 * open, filled; "unknown" while the journal checks; "not sent" for one that never left. An accepted
 * withdrawal still on its way is "in progress", never "done".
 */
export const finalState = (m: Movement): string => {
  if (m.state === 'failed') return 'failed';
  if (m.state === 'unknown') return 'unknown';
  if (m.state !== 'done') return 'not sent';
  if (!m.platformStatus) return 'accepted';
  if (m.kind === 'withdrawal' || m.kind === 'push') {
    const timeline = (m.kind === 'withdrawal' ? withdrawalTimeline : pushTimeline)({ status: m.platformStatus });
    if (!timeline.final) return 'in progress';
    if (timeline.tone === 'success') return 'completed';
    return m.platformStatus === 'CANCEL' || m.platformStatus === 'CANCELED' ? 'cancelled' : 'failed';
  }
  if (m.kind === 'spotOrder') return m.platformStatus === 'closed' ? 'filled' : m.platformStatus;
  return m.platformStatus === 'success' ? 'completed' : m.platformStatus;
};

const param = (m: Movement, key: string): string => {
  const value = m.params[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

/** Where the money went, in a column of its own (not inside the parameters' JSON). */
const destinationOf = (m: Movement): string => {
  switch (m.kind) {
    case 'withdrawal':
      return [param(m, 'address'), param(m, 'memo')].filter(Boolean).join(' memo ');
    case 'push':
      return `UID ${param(m, 'receive_uid')}`;
    case 'subAccountTransfer':
      return param(m, 'direction') === 'from' ? 'main account' : `sub-account UID ${param(m, 'sub_account')}`;
    case 'subToSubTransfer':
      return `sub-account UID ${param(m, 'sub_account_to')}`;
    case 'transfer':
      return param(m, 'to');
    default:
      return param(m, 'currency_pair');
  }
};

/** The movements as an accountant's CSV: fee, destination, network, txid and final state in columns. */
const movementsCsv = (rows: readonly Movement[], recordOf: (m: Movement) => Record<string, unknown> | undefined) => {
  const header = [
    'created_utc',
    'updated_utc',
    'kind',
    'state',
    'currency',
    'amount',
    'fee',
    'destination',
    'network',
    'txid',
    'client_id',
    'platform_id',
    'platform_status',
    'journal_state',
    'label',
    'message',
    'attempts',
    'request_id',
    'operator',
    'parameters',
  ];
  const field = (record: Record<string, unknown> | undefined, key: string) => {
    const value = record?.[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  // Oldest first, as a ledger reads.
  const lines = [...rows].reverse().map((m) => {
    // The platform's record (cached by the history sync) has what the journal does not: fee and txid.
    const record = recordOf(m);
    return [
      new Date(m.createdAt).toISOString(),
      new Date(m.updatedAt).toISOString(),
      m.kind,
      finalState(m),
      m.currency,
      m.amount,
      field(record, 'fee'),
      destinationOf(m),
      param(m, 'chain'),
      field(record, 'txid'),
      m.clientId,
      m.platformId ?? '',
      m.platformStatus ?? '',
      m.state,
      m.label ?? '',
      m.message ?? '',
      String(m.attempts),
      m.requestId ?? '',
      m.operator,
      JSON.stringify(m.params),
    ];
  });
  return toCsv(header, lines);
};

/** Handlers of the `activity` area: audit log, money movements, history sync. */
export const createActivityHandlers = (ctx: ServiceContext, core: CoreInternals): DeskHandlers['activity'] => {
  const profileFilter = (allProfiles?: boolean) => {
    if (allProfiles) return {};
    const id = ctx.activeProfile()?.id;
    return id ? { profileId: id } : {};
  };
  return {
    auditLog: async ({ allProfiles, ...filter }) => ctx.audit.list({ ...filter, ...profileFilter(allProfiles) }),
    verifyAudit: async () => core.auditTrust.check(),
    auditIntegrity: async () => core.auditTrust.state(),
    acknowledgeAuditFailure: async ({ note }) => {
      const state = core.auditTrust.state();
      if (state.ok) return state;
      await core.confirmChange({
        action: 'auditAcknowledge',
        title: 'Acknowledge the failed audit check',
        rows: [{ label: 'What failed', value: state.problem ?? '' }, ...(note ? [{ label: 'Note', value: note }] : [])],
        note: 'The failure and your acknowledgement stay in the audit log for good; the log is then protected again from here on.',
        confirmLabel: 'Acknowledge',
      });
      return core.auditTrust.acknowledge(note);
    },
    exportAuditCsv: async ({ allProfiles, ...filter }) => ({
      filename: `treasury-desk-audit-${stamp()}.csv`,
      // Signed with the desk's key: an auditor checks it with `npm run audit:verify -- <file>`.
      csv: core.auditTrust.signExport(ctx.audit.exportCsv({ ...filter, ...profileFilter(allProfiles) })),
    }),
    movements: async (filter) => ctx.movements.list(filter),
    movement: async ({ id }) => {
      const movement = ctx.movements.get(id);
      if (!movement || movement.profileId !== ctx.activeProfile()?.id) {
        throw DeskFailure.precondition('There is no such money movement in this profile.');
      }
      return movement;
    },
    exportMovementsCsv: async (filter) => ({
      filename: `treasury-desk-movements-${stamp()}.csv`,
      // Every movement that matches unless the screen asked for fewer (-1: SQLite's "no limit").
      csv: movementsCsv(ctx.movements.list({ ...filter, limit: filter.limit ?? -1 }), (m) =>
        m.platformId && (m.kind === 'withdrawal' || m.kind === 'push')
          ? core.history.record(m.kind === 'withdrawal' ? 'withdrawals' : 'pushes', m.platformId)?.data
          : undefined,
      ),
    }),
    reconcile: async () => {
      await ctx.movements.reconcile();
      return ctx.movements.list({ limit: 200 }).filter((m) => m.state !== 'done' && m.state !== 'failed');
    },
    resolveMovement: async ({ id, outcome, note }) => {
      const movement = ctx.movements.resolveManually(id, outcome, note);
      ctx.audit.record({ action: 'activity.resolveMovement', params: { id, outcome, note }, outcome: 'ok' });
      return movement;
    },
    startHistorySync: async (input) => core.history.start(input),
    cancelHistorySync: async ({ syncId }) => core.history.cancel(syncId),
    historyStatus: async () => core.history.status(),
    history: async ({ kinds, from, to, limit, offset }) => core.history.records(kinds, from, to, limit, offset),
    exportHistoryCsv: async ({ kinds, from, to, timeZone, exportId, suggestedName }, { signal }) => {
      const target = await openExportFile(core.app ?? {}, suggestedName);
      if (target === undefined) return { cancelled: true as const };
      const { path, file } = target;
      const progress = (written: number, total: number, state: ExportProgress['state']) =>
        ctx.emit('activity.exportProgress', { exportId, written, total, state });
      let written = 0;
      try {
        await file.write(`${CSV_BOM}${csvLine(historyCsvHeader(timeZone))}`);
        // The person may cancel from the screen: checked between batches, so it stops within one.
        await core.history.eachBatch(kinds, from, to, async (batch, total) => {
          await file.write(batch.map((record) => csvLine(historyCsvFields(record, timeZone))).join(''));
          written += batch.length;
          progress(written, total, 'running');
          return signal?.aborted !== true;
        });
      } catch (error) {
        progress(written, written, 'failed');
        throw cannotWrite(path, error);
      } finally {
        await file.close();
      }
      if (signal?.aborted) {
        // A cancelled export leaves no half-written file behind.
        await rm(path, { force: true });
        progress(written, written, 'cancelled');
        return { cancelled: true as const };
      }
      progress(written, written, 'done');
      ctx.audit.record({
        action: 'activity.exportHistoryCsv',
        params: { kinds, from, to, rows: written, file: basename(path) },
        outcome: 'ok',
      });
      return { path, rows: written };
    },
  };
};
