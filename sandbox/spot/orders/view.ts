// Order and trade rows → the platform's JSON shapes (api-facts §1.1, §1.7), honouring action_mode.

import Decimal from 'decimal.js';
import type { OrderRow, TradeRow } from '../store';
import type { ActionMode } from './validate';

const FEE_FIELDS = [
  'fee',
  'fee_currency',
  'point_fee',
  'gt_fee',
  'gt_maker_fee',
  'gt_taker_fee',
  'gt_discount',
  'rebated_fee',
  'rebated_fee_currency',
] as const;

function avgPrice(row: OrderRow): string {
  if (row.filled_amount === '0') return '0';
  return new Decimal(row.filled_total).div(row.filled_amount).toDecimalPlaces(12, Decimal.ROUND_HALF_UP).toFixed();
}

export function orderView(row: OrderRow, mode: ActionMode = 'FULL'): Record<string, unknown> {
  if (mode === 'ACK') return { id: String(row.id), text: row.text, amend_text: row.amend_text };
  const quote = row.currency_pair.split('_')[1] ?? '';
  const view: Record<string, unknown> = {
    id: String(row.id),
    text: row.text,
    amend_text: row.amend_text,
    create_time: String(Math.floor(row.create_ms / 1000)),
    update_time: String(Math.floor(row.update_ms / 1000)),
    create_time_ms: row.create_ms,
    update_time_ms: row.update_ms,
    status: row.status,
    currency_pair: row.currency_pair,
    type: row.type,
    account: row.account,
    side: row.side,
    amount: row.amount,
    price: row.price,
    time_in_force: row.time_in_force,
    iceberg: row.iceberg,
    left: row.left,
    filled_amount: row.filled_amount,
    fill_price: row.filled_total,
    filled_total: row.filled_total,
    avg_deal_price: avgPrice(row),
    fee: row.fee,
    fee_currency: row.fee_currency,
    point_fee: '0',
    gt_fee: '0',
    gt_maker_fee: '0',
    gt_taker_fee: '0',
    gt_discount: false,
    rebated_fee: '0',
    rebated_fee_currency: quote,
    stp_id: row.stp_id,
    stp_act: row.stp_act,
    finish_as: row.finish_as,
  };
  if (row.biz_info !== '') view.biz_info = row.biz_info;
  if (mode === 'RESULT') for (const f of FEE_FIELDS) delete view[f];
  return view;
}

/**
 * A batch item (the SDKs' BatchOrder: POST /spot/batch_orders, /spot/amend_batch_orders): the order
 * without the per-role GT fee fields, which that model does not have.
 */
export function batchOrderView(row: OrderRow, mode: ActionMode = 'FULL'): Record<string, unknown> {
  const { gt_maker_fee: _maker, gt_taker_fee: _taker, ...view } = orderView(row, mode);
  return view;
}

/** "1548000000123.456": trade times carry microseconds as a fraction of a millisecond. */
function msText(us: number): string {
  return `${Math.floor(us / 1000)}.${String(us % 1000).padStart(3, '0')}`;
}

export function publicTradeView(t: TradeRow): Record<string, unknown> {
  return {
    id: String(t.id),
    create_time: String(Math.floor(t.create_us / 1_000_000)),
    create_time_ms: msText(t.create_us),
    currency_pair: t.currency_pair,
    side: t.side,
    amount: t.amount,
    price: t.price,
    sequence_id: String(t.sequence_id),
    deal: t.quote,
  };
}

/** A trade as seen by one of its parties (both rows are returned when a user traded with itself). */
export function myTradeView(t: TradeRow, role: 'maker' | 'taker'): Record<string, unknown> {
  const takerSide = t.side;
  const side = role === 'taker' ? takerSide : takerSide === 'buy' ? 'sell' : 'buy';
  return {
    ...publicTradeView(t),
    side,
    role,
    order_id: String(role === 'maker' ? t.maker_order_id : t.taker_order_id),
    fee: role === 'maker' ? t.maker_fee : t.taker_fee,
    fee_currency: role === 'maker' ? t.maker_fee_currency : t.taker_fee_currency,
    point_fee: '0',
    gt_fee: '0',
    amend_text: role === 'maker' ? t.maker_amend_text : t.taker_amend_text,
    text: role === 'maker' ? t.maker_text : t.taker_text,
  };
}
