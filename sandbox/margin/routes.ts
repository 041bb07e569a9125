/**
 * Public margin market list (GET /margin/currency_pairs, the spec's legacy path, still called by
 * well-known clients such as ccxt when they load spot markets): the isolated-margin pairs of
 * sandbox/catalog.ts.
 */
import { MARGIN_PAIRS } from '../catalog';
import { ApiFailure } from '../http/errors';
import type { RouteDef } from '../http/route';

function pairView(id: string): Record<string, unknown> {
  const [base = '', quote = ''] = id.split('_');
  return {
    id,
    base,
    quote,
    leverage: 10,
    min_base_amount: '0.0001',
    min_quote_amount: '1',
    max_quote_amount: '1000000',
    status: 1,
  };
}

export function marginRoutes(): RouteDef[] {
  return [
    { method: 'GET', path: '/margin/currency_pairs', auth: 'public', handler: () => MARGIN_PAIRS.map(pairView) },
    {
      method: 'GET',
      path: '/margin/currency_pairs/:currency_pair',
      auth: 'public',
      handler: (req) => {
        const id = req.params.currency_pair ?? '';
        if (!MARGIN_PAIRS.includes(id)) throw new ApiFailure('INVALID_CURRENCY_PAIR', `Not a margin pair: ${id}`);
        return pairView(id);
      },
    },
  ];
}
