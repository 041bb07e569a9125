/**
 * Account group beyond STP (api-facts §3): GET /account/detail describes the CALLING key — its user,
 * IP whitelist, trading-pair whitelist and mode — so a client can show what the key is bound to.
 * The STP group operations under /account/stp_groups live with the spot module (sandbox/spot/stp.ts).
 */
import type { RouteDef } from '../http/route';

/**
 * `tier` is the VIP level: every sandbox account is VIP 0 (fee tiers are set per user, without
 * levels). `copy_trading_role` 0 = normal user (copy trading is not simulated). `currency_pairs`
 * is the key's trading-pair whitelist: sandbox keys have none.
 */
export function accountRoutes(): RouteDef[] {
  return [
    {
      method: 'GET',
      path: '/account/detail',
      auth: 'private',
      permission: 'account',
      handler: (req) => ({
        user_id: req.user.id,
        ip_whitelist: [...req.caller.key.ipWhitelist],
        currency_pairs: [],
        key: { mode: req.caller.key.mode },
        tier: 0,
        copy_trading_role: 0,
      }),
    },
  ];
}
