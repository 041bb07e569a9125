/**
 * Carries the old "Ask before placing an order" preference (kept in this window's storage, read by
 * nothing) into the one setting the tickets and main use: `confirmOrders` of the trade settings.
 * A confirmation the person had asked for is never dropped: a stored "on" switches the setting on;
 * a stored "off" leaves it as it is (the old flag did nothing, so "off" asked for no change). Runs
 * once, then forgets the old value.
 */
import { useEffect, useRef } from 'react';
import { call } from '../lib/desk';
import { usePrefs } from '../lib/prefs';

export const PrefsMigration = () => {
  const legacy = usePrefs((s) => s.legacyConfirmOrders);
  const running = useRef(false);
  useEffect(() => {
    if (legacy === undefined || running.current) return;
    running.current = true;
    void (async () => {
      try {
        if (legacy) {
          const settings = await call('trade.settings', {});
          if (!settings.confirmOrders) await call('trade.updateSettings', { ...settings, confirmOrders: true });
        }
        usePrefs.setState({ legacyConfirmOrders: undefined });
      } catch {
        // Main not ready (or locked): tried again on the next start.
      } finally {
        running.current = false;
      }
    })();
  }, [legacy]);
  return null;
};
