/**
 * The control plane (/sandbox/*): unsigned, loopback only, JSON. A stable contract used by the app,
 * the tests and the benchmarks — documented in docs/sandbox.md. Bad input gets {label, message} and
 * changes nothing.
 */
import { PERMISSION_NAMES, SUB_ACCOUNT_PERMISSION_NAMES } from '../../shared/platform/statuses';
import { chainDef, currencyDef, DELIVERY_SETTLES, FUTURES_SETTLES, MARGIN_PAIRS } from '../catalog';
import type { SandboxContext } from '../context';
import type { ControlRoute } from '../http/app';
import { ApiFailure } from '../http/errors';
import type { Faults, StreamFaults } from '../http/faults';
import { bodyObject, optBool, optString, reqAmount, reqEnum, reqInt, reqString } from '../http/params';
import type { RateLimiter } from '../http/rate-limit';
import type { Pipelines } from '../pipelines/pipelines';
import { CANCELLABLE_PUSH, needsReview } from '../pipelines/pipelines';
import { ACCOUNT_TYPES, type BalanceKey, dec } from '../store/ledger';
import { FULL_PERMS } from '../store/users';
import { keyView, parsePerms, parseWhitelist } from '../subaccounts/routes';
import { depositAddressOf, ensureDepositAddresses } from '../wallet/addresses';
import { parseScaleBody, seededMainAccount, seedScale } from './scale';

export function controlRoutes(deps: {
  ctx: SandboxContext;
  pipelines: Pipelines;
  limiter: RateLimiter;
  faults: Faults;
  /** The WebSocket API's faults (absent when a caller builds the control plane without it). */
  stream?: { server: { cut(): number }; faults: StreamFaults };
}): ControlRoute[] {
  const { ctx, pipelines, limiter, faults, stream } = deps;
  const streamOf = () => {
    if (stream === undefined) throw new ApiFailure('NOT_FOUND', 'This sandbox has no WebSocket stream');
    return stream;
  };
  const { db, users, ledger, clock } = ctx;

  const userParam = (body: Record<string, unknown>) => {
    const id = reqInt(body, 'user_id', { min: 1 });
    const user = users.get(id);
    if (!user) throw new ApiFailure('INVALID_PARAM_VALUE', `user ${id} does not exist`);
    return user;
  };

  const currencyParam = (body: Record<string, unknown>) => {
    const code = reqString(body, 'currency', 20);
    const def = currencyDef(code);
    if (!def) throw new ApiFailure('INVALID_CURRENCY', `Unknown currency: ${code}`);
    return def;
  };

  return [
    {
      method: 'GET',
      path: '/health',
      handler: () => ({
        status: 'ok',
        clock: clock.mode,
        now: clock.now(),
        offset_seconds: clock.skewSeconds,
        data_dir: ctx.options.dataDir,
        market: ctx.options.market,
      }),
    },
    {
      method: 'POST',
      path: '/users',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const refusePush = optBool(b, 'refuse_push') ?? false;
        const remark = optString(b, 'remark', 128) ?? '';
        const wanted = optString(b, 'login_name', 64);
        if (wanted !== undefined && !/^[A-Za-z0-9_]{4,32}$/.test(wanted)) {
          throw new ApiFailure('INVALID_PARAM_VALUE', 'login_name: 4 to 32 letters, digits or underscores');
        }
        return ctx.tx(() => {
          const loginName = wanted ?? `user_${ctx.ids.hex(5, 'login')}`;
          if (users.loginNameTaken(loginName))
            throw new ApiFailure('INVALID_PARAM_VALUE', `login_name ${loginName} is taken`);
          const user = users.createUser({
            parentId: null,
            loginName,
            remark,
            email: `${loginName}@sandbox.local`,
            refusePush,
          });
          ensureDepositAddresses(ctx, user.id);
          const key = users.createKey(user.id, { name: 'sandbox-full', perms: FULL_PERMS, ipWhitelist: [] });
          return { user_id: user.id, login_name: user.loginName, key: key.key, secret: key.secret };
        });
      },
    },
    {
      method: 'POST',
      path: '/keys',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const user = userParam(b);
        const perms = parsePerms(b.perms, PERMISSION_NAMES);
        const ipWhitelist = parseWhitelist(b.ip_whitelist);
        const name = optString(b, 'name', 64) ?? '';
        const state = b.state === undefined ? 1 : b.state === 1 || b.state === 2 ? b.state : undefined;
        if (state === undefined)
          throw new ApiFailure('INVALID_PARAM_VALUE', 'state must be 1 (normal) or 2 (disabled)');
        const key = users.createKey(user.id, { name, perms, ipWhitelist });
        if (state !== 1) users.setKeyState(key.key, state);
        return keyView(users.key(key.key)!, true);
      },
    },
    {
      // Business permissions of a sub-account are set in the platform's web console, not the API.
      method: 'POST',
      path: '/sub_accounts/business_permissions',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const user = userParam(b);
        if (user.parentId === null)
          throw new ApiFailure('INVALID_PARAM_VALUE', 'business permissions belong to sub-accounts');
        if (!Array.isArray(b.disabled)) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'disabled must be an array');
        const disabled = [...new Set(b.disabled as unknown[])].map((name) => {
          if (typeof name !== 'string' || !(SUB_ACCOUNT_PERMISSION_NAMES as readonly string[]).includes(name)) {
            throw new ApiFailure(
              'INVALID_PARAM_VALUE',
              `disabled: permission names among ${SUB_ACCOUNT_PERMISSION_NAMES.join(', ')}`,
            );
          }
          return name;
        });
        users.setDisabledBusiness(user.id, disabled);
        return { user_id: user.id, disabled };
      },
    },
    {
      method: 'POST',
      path: '/balances',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const user = userParam(b);
        const account = reqEnum(b, 'account', ACCOUNT_TYPES);
        const currency = reqString(b, 'currency', 20);
        const amount = reqAmount(b, 'amount', 18);
        let key: BalanceKey = { userId: user.id, account, currency };
        if (account === 'margin') {
          const pair = reqString(b, 'currency_pair', 40);
          if (!MARGIN_PAIRS.includes(pair) || !pair.split('_').includes(currency)) {
            throw new ApiFailure(
              'INVALID_CURRENCY_PAIR',
              `currency_pair must be one of ${MARGIN_PAIRS.join(', ')} and contain ${currency}`,
            );
          }
          key = { ...key, pair };
        } else if (account === 'futures' || account === 'delivery') {
          const settle = (optString(b, 'settle', 10) ?? currency).toLowerCase();
          const allowed = account === 'futures' ? FUTURES_SETTLES : DELIVERY_SETTLES;
          if (!allowed.includes(settle) || settle.toUpperCase() !== currency) {
            throw new ApiFailure(
              'INVALID_PARAM_VALUE',
              `${account} balances are in the settle currency: ${allowed.join(', ')}`,
            );
          }
        } else if (!currencyDef(currency)) {
          throw new ApiFailure('INVALID_CURRENCY', `Unknown currency: ${currency}`);
        }
        ctx.tx(() => ledger.credit(key, amount, 'sandbox_credit'));
        const now = ledger.get(key);
        return {
          user_id: user.id,
          account,
          currency,
          currency_pair: key.pair ?? '',
          available: now.available,
          locked: now.locked,
        };
      },
    },
    {
      method: 'POST',
      path: '/deposits',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const user = userParam(b);
        const def = currencyParam(b);
        const chainName = reqString(b, 'chain', 20);
        const ch = chainDef(def, chainName);
        if (!ch) throw new ApiFailure('INVALID_PARAM_VALUE', `Chain ${chainName} is not available for ${def.currency}`);
        if (ch.disabled || ch.depositDisabled)
          throw new ApiFailure('INVALID_PARAM_VALUE', `Deposits on ${chainName} are suspended`);
        const amount = reqAmount(b, 'amount', ch.decimal);
        const blocked = optBool(b, 'blocked') ?? false;
        const route = blocked
          ? 'blocked'
          : amount.lt(def.minDeposit)
            ? 'invalid'
            : needsReview(def.currency, amount)
              ? 'review'
              : 'chain';
        const id = ctx.tx(() => {
          ensureDepositAddresses(ctx, user.id);
          const a = depositAddressOf(ctx, user.id, def.currency, ch.chain)!;
          return pipelines.createDeposit({
            userId: user.id,
            currency: def.currency,
            chain: ch.chain,
            address: a.address,
            memo: a.memo,
            amount: dec(amount),
            route,
            now: clock.now(),
          });
        });
        const row = db
          .prepare(
            'SELECT id, txid, timestamp, amount, currency, address, memo, status, chain FROM deposits WHERE id = ?',
          )
          .get(id) as {
          timestamp: number;
        };
        return { ...row, timestamp: String(Math.floor(row.timestamp / 1000)) };
      },
    },
    {
      method: 'POST',
      path: '/saved_addresses',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const user = userParam(b);
        const def = currencyParam(b);
        const chainName = reqString(b, 'chain', 20);
        if (!chainDef(def, chainName))
          throw new ApiFailure('INVALID_PARAM_VALUE', `Chain ${chainName} is not available for ${def.currency}`);
        const address = reqString(b, 'address', 256);
        const tag = optString(b, 'tag', 128) ?? '';
        const name = optString(b, 'name', 128) ?? '';
        const verified = (optBool(b, 'verified') ?? true) ? '1' : '0';
        db.prepare(
          'INSERT INTO saved_addresses (user_id, currency, chain, address, name, tag, verified) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ).run(user.id, def.currency, chainName, address, name, tag, verified);
        return { currency: def.currency, chain: chainName, address, name, tag, verified };
      },
    },
    {
      method: 'POST',
      path: '/advance',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const seconds = b.seconds;
        if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 400 * 86_400) {
          throw new ApiFailure('INVALID_PARAM_VALUE', 'seconds must be a number from 0 to 34560000');
        }
        clock.advance(seconds);
        return { now: clock.now() };
      },
    },
    {
      method: 'POST',
      path: '/clock',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const offset = b.offset_seconds;
        if (typeof offset !== 'number' || !Number.isFinite(offset) || Math.abs(offset) > 400 * 86_400) {
          throw new ApiFailure('INVALID_PARAM_VALUE', 'offset_seconds must be a number');
        }
        clock.setSkew(offset);
        return { offset_seconds: clock.skewSeconds, server_time: clock.serverTimeMs() };
      },
    },
    { method: 'POST', path: '/faults', handler: ({ body }) => ({ added: faults.add(body), rules: faults.list() }) },
    {
      method: 'DELETE',
      path: '/faults',
      handler: () => {
        faults.clear();
        return { rules: [] };
      },
    },
    {
      // Every WebSocket connection is cut at once (no close frame), as a network failure would.
      method: 'POST',
      path: '/stream/cut',
      handler: () => ({ closed: streamOf().server.cut() }),
    },
    {
      // Order-book update messages (spot.order_book_update, spot.obu) are dropped: the next N,
      // and/or each with a probability, so clients meet a gap in U/u.
      method: 'POST',
      path: '/stream/faults',
      handler: ({ body }) => {
        const s = streamOf();
        s.faults.set(body);
        return s.faults.state();
      },
    },
    { method: 'GET', path: '/stream/faults', handler: () => streamOf().faults.state() },
    {
      method: 'DELETE',
      path: '/stream/faults',
      handler: () => {
        const s = streamOf();
        s.faults.clear();
        return s.faults.state();
      },
    },
    {
      method: 'POST',
      path: '/pipelines/step',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const kind = reqEnum(b, 'kind', ['withdrawal', 'deposit', 'push'] as const);
        const id = reqString(b, 'id', 40);
        if (!pipelines.stepNow(kind, id)) throw new ApiFailure('NOT_FOUND', `No ${kind} ${id} with a pending step`);
        const table = kind === 'withdrawal' ? 'withdrawals' : kind === 'deposit' ? 'deposits' : 'pushes';
        const row = db.prepare(`SELECT status FROM ${table} WHERE id = ?`).get(kind === 'push' ? Number(id) : id) as {
          status: string;
        };
        return { kind, id, status: row.status };
      },
    },
    {
      // The platform has no API to take back a UID push; the control plane plays the sender's
      // cancellation of a push its receiver has not accepted yet.
      method: 'POST',
      path: '/pushes/cancel',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const id = reqInt(b, 'id', { min: 1 });
        const row = db.prepare('SELECT status FROM pushes WHERE id = ?').get(id) as { status: string } | undefined;
        if (!row) throw new ApiFailure('NOT_FOUND', `No UID push ${id}`);
        if (!CANCELLABLE_PUSH.has(row.status)) {
          throw new ApiFailure('INVALID_PARAM_VALUE', `UID push ${id} cannot be cancelled in status ${row.status}`);
        }
        pipelines.startPushCancel(id, ctx.clock.now());
        return { id: String(id), status: 'CANCELLING' };
      },
    },
    {
      // A large, realistic treasury in one transaction (benchmarks, tests of large lists): settled
      // deposits and withdrawals spread over the last `days` days, funded sub-accounts (scale.ts).
      method: 'POST',
      path: '/scale',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const user = b.user_id === undefined || b.user_id === null ? seededMainAccount(ctx) : userParam(b);
        return seedScale(ctx, pipelines, parseScaleBody(b, user));
      },
    },
    {
      method: 'POST',
      path: '/rate_limits',
      handler: ({ body }) => {
        const b = bodyObject(body);
        const enforce = optBool(b, 'enforce');
        if (enforce !== undefined) limiter.enforce = enforce;
        if (optBool(b, 'reset')) limiter.reset();
        return { enforce: limiter.enforce };
      },
    },
  ];
}
