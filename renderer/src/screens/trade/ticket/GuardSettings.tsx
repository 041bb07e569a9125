/** The ticket's guards and preferences: price band, max notional, confirmation, shortcuts. */
import { useEffect, useState } from 'react';
import type { TradeSettings } from '../../../../../shared/contract/trade';
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
        suffix="%"
      />
      <AmountField
        label="Maximum order value (quote currency, empty = none)"
        value={draft.maxNotional}
        onChange={(v) => setDraft({ ...draft, maxNotional: v })}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={draft.confirmOrders}
          onChange={(e) => setDraft({ ...draft, confirmOrders: e.target.checked })}
        />{' '}
        Confirm every order
      </label>
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
