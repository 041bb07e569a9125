/**
 * "Ask before placing an order": the ONE confirmation setting for orders. It is kept by main with
 * the other order guards (`trade.settings`), and the order and stop tickets read it from there.
 */
import { DEFAULT_TRADE_SETTINGS } from '../../../../shared/contract/trade';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { Checkbox, ErrorNotice } from '../../ui';

export const ConfirmOrdersSetting = () => {
  const settings = useDeskQuery(['trade.settings', {}]);
  const update = useDeskMutation('trade.updateSettings', { invalidates: ['trade.settings'] });
  const current = settings.data ?? DEFAULT_TRADE_SETTINGS;
  return (
    <>
      <Checkbox
        label="Ask before placing an order"
        hint="A review of every order before it is sent (stop and take-profit orders too). Withdrawals and transfers always ask."
        checked={current.confirmOrders}
        disabled={!settings.data || update.isPending}
        onChange={(confirmOrders) => update.mutate({ ...current, confirmOrders })}
        testId="pref-confirm-orders"
      />
      {settings.error ? <ErrorNotice error={settings.error} compact onRetry={() => void settings.refetch()} /> : null}
      {update.error ? <ErrorNotice error={update.error} compact /> : null}
    </>
  );
};
