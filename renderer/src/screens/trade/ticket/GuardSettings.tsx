/** The ticket's guards and preferences: price band, max notional, confirmation, shortcuts. */
import { useEffect, useState } from 'react';
import type { TradeSettings } from '../../../../../shared/contract/trade';
import { goTo } from '../../../lib/navigation';
import { AmountField, amountValue, Button } from '../../../ui';

export function GuardSettings({
  settings,
  onSave,
  saving,
}: {
  settings: TradeSettings;
  onSave: (settings: TradeSettings) => void;
  saving: boolean;
}) {
  const [draft, setDraft] = useState(settings);
  useEffect(() => setDraft(settings), [settings]);
  const changed = JSON.stringify(draft) !== JSON.stringify(settings);
  return (
    <details className="guard-settings">
      <summary>Order guards</summary>
      <AmountField
        label="Warn when the price is more than this % from the mid"
        value={draft.priceDeviationPercent}
        onChange={(v) => setDraft({ ...draft, priceDeviationPercent: v })}
        currency="%"
      />
      <AmountField
        label="Maximum order value (quote currency, empty = none)"
        value={draft.maxNotional}
        onChange={(v) => setDraft({ ...draft, maxNotional: v })}
      />
      <p className="field-hint" data-testid="guard-confirm-orders">
        {settings.confirmOrders ? 'Every order is reviewed before it is sent' : 'Orders are sent without a review'}{' '}
        (Settings → Safety → “Ask before placing an order”).{' '}
        <button type="button" className="link-button" onClick={() => goTo('settings')}>
          Change
        </button>
      </p>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.shortcuts}
          onChange={(e) => setDraft({ ...draft, shortcuts: e.target.checked })}
        />{' '}
        Keyboard shortcuts (Alt+B buy, Alt+S sell, Alt+L limit, Alt+M market)
      </label>
      <Button
        size="sm"
        variant="primary"
        disabled={!changed || draft.priceDeviationPercent === ''}
        busy={saving}
        onClick={() =>
          // Saved as canonical decimals: "1,000" typed is kept as 1000.
          onSave({
            ...draft,
            priceDeviationPercent: amountValue(draft.priceDeviationPercent) ?? draft.priceDeviationPercent,
            maxNotional: draft.maxNotional.trim() === '' ? '' : (amountValue(draft.maxNotional) ?? draft.maxNotional),
          })
        }
      >
        Save guards
      </Button>
    </details>
  );
}
