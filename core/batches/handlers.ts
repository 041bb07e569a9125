/**
 * Handlers of the `bulk` area (docs/bulk.md), each from its own area: batches of movements
 * (batches/batches.ts: every row through its movement's domain command), sub-accounts in bulk
 * (subAccounts/bulk.ts) and API-key rotation (subAccounts/keyRotation.ts). What is left here is the
 * handlers' own work: writing files through the save dialog, audit entries and the key-health date.
 */
import { basename } from 'node:path';
import type { DeskHandlers } from '../../shared/contract';
import { type AppDeps, openExportFile } from '../app/handlers';
import type { ServiceContext } from '../context';
import type { ControlPlane } from '../operators/controls';
import { type createSubAccounts, keyHealth, readSubAccountFile, type setFrozen } from '../subAccounts/bulk';
import { createSubAccountsChange, setFrozenChange } from '../subAccounts/handlers';
import type { KeyRotationHandlers } from '../subAccounts/keyRotation';
import type { Batches } from './batches';

/** Writes a file where the person chooses (the save dialog / Downloads); its path, or undefined if cancelled. */
export const saveExportFile =
  (deps: AppDeps) =>
  async (suggestedName: string, content: string): Promise<string | undefined> => {
    const target = await openExportFile(deps, suggestedName);
    if (!target) return undefined;
    try {
      await target.file.writeFile(content, 'utf8');
    } finally {
      await target.file.close();
    }
    return target.path;
  };

export const createBulkHandlers = (
  ctx: ServiceContext,
  deps: {
    readonly batches: Batches;
    readonly keyRotation: KeyRotationHandlers;
    readonly app: AppDeps;
    readonly controls: ControlPlane;
  },
): DeskHandlers['bulk'] => {
  const save = saveExportFile(deps.app);
  return {
    ...deps.batches.handlers,
    ...deps.keyRotation,

    exportReport: async ({ id, timeZone }) => {
      const report = deps.batches.report(id, timeZone);
      const path = await save(report.name, report.content);
      if (!path) return { cancelled: true as const };
      ctx.audit.record({ action: 'bulk.exportReport', params: { id, name: basename(path) }, outcome: 'ok' });
      return { path, rows: report.rows };
    },

    createSubAccounts: async ({ text }) => {
      const file = readSubAccountFile(text);
      if (file.fileProblems.length > 0) return { results: [], fileProblems: file.fileProblems };
      const created =
        file.rows.length === 0
          ? []
          : await deps.controls.submit<Awaited<ReturnType<typeof createSubAccounts>>>(
              createSubAccountsChange(ctx, file.rows, false),
            );
      return { results: [...file.invalid, ...created].sort((a, b) => a.row - b.row), fileProblems: [] };
    },

    setFrozen: async ({ userIds, frozen }) => ({
      results: await deps.controls.submit<Awaited<ReturnType<typeof setFrozen>>>(
        await setFrozenChange(ctx, userIds, frozen, false),
      ),
    }),

    keyHealth: async ({ userIds, unusedDays }) => {
      const health = await keyHealth(ctx.platform(), userIds, unusedDays);
      ctx.settings.set('bulk.keyHealthCheckedAt', health.checkedAt);
      return health;
    },
  };
};
