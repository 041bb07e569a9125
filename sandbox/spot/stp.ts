// Self-trade prevention groups (/account/stp_groups, api-facts §3): a main account creates groups and
// puts itself and its sub-accounts in them; orders carry the owner's group as `stp_id` and never
// match another order of the same group (the taker's `stp_act` decides what is cancelled).
//
// Choices where the sources are silent (docs/sandbox-spot.md): a user belongs to at most one group;
// an unknown group (or one of another main account) answers NOT_FOUND; adding a user that is not the
// main account or one of its sub-accounts, or that is already in another group, is INVALID_PARAM_VALUE.

import { ApiFailure } from '../http/errors';
import type { Users } from '../store/users';
import type { SpotStore, StpGroupRow, StpMemberRow } from './store';

export class StpGroups {
  /** user id → group id, for the matching hot path. */
  private readonly membership = new Map<number, number>();

  constructor(
    private readonly store: SpotStore,
    private readonly users: Users,
    private readonly now: () => number,
  ) {
    for (const m of store.query<StpMemberRow>('SELECT * FROM spot_stp_members'))
      this.membership.set(m.user_id, m.stp_id);
  }

  groupOf(userId: number): number {
    return this.membership.get(userId) ?? 0;
  }

  create(mainId: number, body: unknown): StpGroupRow {
    const name = (body as { name?: unknown } | null)?.name;
    if (name === undefined || name === null || name === '') {
      throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: name');
    }
    if (typeof name !== 'string' || name.length > 64) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'name must be a string of at most 64 characters');
    }
    const createTime = Math.floor(this.now() / 1000);
    const id = this.store.transaction(() => {
      const info = this.store.db
        .prepare('INSERT INTO spot_stp_groups (name, creator_id, create_time) VALUES (?, ?, ?)')
        .run(name, mainId, createTime);
      return Number(info.lastInsertRowid);
    });
    return { id, name, creator_id: mainId, create_time: createTime };
  }

  list(mainId: number, name: string | undefined): StpGroupRow[] {
    if (name !== undefined && name !== '') {
      return this.store.query<StpGroupRow>(
        "SELECT * FROM spot_stp_groups WHERE creator_id = ? AND name LIKE ? ESCAPE '\\' ORDER BY id",
        mainId,
        `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      );
    }
    return this.store.query<StpGroupRow>('SELECT * FROM spot_stp_groups WHERE creator_id = ? ORDER BY id', mainId);
  }

  members(mainId: number, stpId: string): StpMemberRow[] {
    const group = this.ownGroup(mainId, stpId);
    return this.store.query<StpMemberRow>(
      'SELECT * FROM spot_stp_members WHERE stp_id = ? ORDER BY create_time, user_id',
      group.id,
    );
  }

  addMembers(mainId: number, stpId: string, body: unknown): StpMemberRow[] {
    const group = this.ownGroup(mainId, stpId);
    if (!Array.isArray(body) || body.length === 0) {
      throw new ApiFailure('INVALID_REQUEST_BODY', 'Body must be a non-empty JSON array of user ids');
    }
    const ids = body.map((v) => {
      const id = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
        throw new ApiFailure('INVALID_PARAM_VALUE', 'user ids must be positive integers');
      }
      return id;
    });
    for (const id of ids) {
      const user = this.users.get(id);
      if (user === undefined || (user.id !== mainId && user.parentId !== mainId)) {
        throw new ApiFailure('INVALID_PARAM_VALUE', `User ${id} is not this main account or one of its sub-accounts`);
      }
      const current = this.groupOf(id);
      if (current !== 0 && current !== group.id) {
        throw new ApiFailure('INVALID_PARAM_VALUE', `User ${id} is already a member of STP group ${current}`);
      }
    }
    const createTime = Math.floor(this.now() / 1000);
    this.store.transaction(() => {
      const insert = this.store.db.prepare(
        'INSERT OR IGNORE INTO spot_stp_members (user_id, stp_id, create_time) VALUES (?, ?, ?)',
      );
      for (const id of ids) insert.run(id, group.id, createTime);
    });
    for (const id of ids) this.membership.set(id, group.id);
    return this.members(mainId, stpId);
  }

  removeMembers(mainId: number, stpId: string, userIds: string | undefined): StpMemberRow[] {
    const group = this.ownGroup(mainId, stpId);
    if (userIds === undefined || userIds === '') {
      throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: user_id');
    }
    const ids = userIds.split(',').map((s) => {
      if (!/^\d{1,15}$/.test(s.trim()))
        throw new ApiFailure('INVALID_PARAM_VALUE', 'user_id must be comma-separated ids');
      return Number(s.trim());
    });
    this.store.transaction(() => {
      const del = this.store.db.prepare('DELETE FROM spot_stp_members WHERE user_id = ? AND stp_id = ?');
      for (const id of ids) del.run(id, group.id);
    });
    for (const id of ids) if (this.membership.get(id) === group.id) this.membership.delete(id);
    return this.members(mainId, stpId);
  }

  private ownGroup(mainId: number, stpId: string): StpGroupRow {
    const id = /^\d{1,15}$/.test(stpId) ? Number(stpId) : -1;
    const group = this.store.query<StpGroupRow>('SELECT * FROM spot_stp_groups WHERE id = ?', id)[0];
    if (group === undefined || group.creator_id !== mainId) {
      throw new ApiFailure('NOT_FOUND', `STP group ${stpId} not found`);
    }
    return group;
  }
}
