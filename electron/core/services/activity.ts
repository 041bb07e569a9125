import type { DeskHandlers } from '../../../shared/contract';
import type { CoreInternals } from '../core';
import { DeskFailure } from '../errors';
import { csvField } from '../journal/audit';
import type { Movement } from '../movements/types';
import type { ServiceContext } from './context';

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);

const movementsCsv = (rows: readonly Movement[]): string => {
  const header = [
    'created_utc',
    'updated_utc',
    'kind',
    'state',
    'currency',
    'amount',
    'client_id',
    'platform_id',
    'platform_status',
    'label',
    'message',
    'attempts',
    'request_id',
    'parameters',
  ];
  const lines = [header.join(',')];
  for (const m of [...rows].reverse()) {
    lines.push(
      [
        new Date(m.createdAt).toISOString(),
        new Date(m.updatedAt).toISOString(),
        m.kind,
        m.state,
        m.currency,
        m.amount,
        m.clientId,
        m.platformId ?? '',
        m.platformStatus ?? '',
        m.label ?? '',
        m.message ?? '',
        String(m.attempts),
        m.requestId ?? '',
        JSON.stringify(m.params),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
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
    verifyAudit: async () => {
      const result = ctx.audit.verify();
      return result.ok ? { ok: true, entries: result.entries } : { ok: false, brokenAtSeq: result.brokenAtSeq };
    },
    exportAuditCsv: async ({ allProfiles, ...filter }) => ({
      filename: `treasury-desk-audit-${stamp()}.csv`,
      csv: ctx.audit.exportCsv({ ...filter, ...profileFilter(allProfiles) }),
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
      csv: movementsCsv(ctx.movements.list({ ...filter, limit: filter.limit ?? 100_000 })),
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
    history: async ({ kind, from, to, limit, offset }) => core.history.records(kind, from, to, limit, offset),
  };
};
