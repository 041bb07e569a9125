/**
 * The ticket's pressed-button toggles (side, order type, trigger kind): one look and one keyboard
 * behaviour for every choice the order and the stop / take-profit tickets offer.
 */
import type { ReactNode } from 'react';
import type { OrderType, Side } from '../../../../../../shared/contract/trade';

export interface ToggleChoice<T extends string> {
  value: T;
  label: ReactNode;
  /** The button's class before ` is-on` (the colours of buy, sell and the neutral choices differ). */
  className: string;
  testId?: string;
}

export function TicketToggle<T extends string>({
  legend,
  value,
  choices,
  onChange,
}: {
  /** Read by screen readers only. */
  legend: string;
  value: T;
  choices: readonly ToggleChoice<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="ticket-toggle">
      <legend className="sr-only">{legend}</legend>
      {choices.map((c) => (
        <button
          key={c.value}
          type="button"
          className={`${c.className}${value === c.value ? ' is-on' : ''}`}
          aria-pressed={value === c.value}
          onClick={() => onChange(c.value)}
          data-testid={c.testId}
        >
          {c.label}
        </button>
      ))}
    </fieldset>
  );
}

/** "Buy BTC" / "Sell BTC". */
export function SideToggle({ base, side, onChange }: { base: string; side: Side; onChange: (side: Side) => void }) {
  return (
    <TicketToggle
      legend="Side"
      value={side}
      onChange={onChange}
      choices={(['buy', 'sell'] as const).map((s) => ({
        value: s,
        label: `${s === 'buy' ? 'Buy' : 'Sell'} ${base}`,
        className: `ticket-side ticket-${s}`,
      }))}
    />
  );
}

const ORDER_TYPES: readonly ToggleChoice<OrderType>[] = [
  { value: 'limit', label: 'Limit', className: 'ticket-type' },
  { value: 'market', label: 'Market', className: 'ticket-type' },
];

/** Limit / Market; the legend says whose type it is (the order's, or the one a trigger places). */
export function OrderTypeToggle({
  legend,
  type,
  onChange,
}: {
  legend: string;
  type: OrderType;
  onChange: (type: OrderType) => void;
}) {
  return <TicketToggle legend={legend} value={type} choices={ORDER_TYPES} onChange={onChange} />;
}
