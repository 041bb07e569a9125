import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TRADE_SETTINGS, type TradeSettings } from '../../../../shared/contract/trade';
import { PrefsMigration } from '../../frame/PrefsMigration';
import { usePrefs } from '../../lib/prefs';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { GuardSettings } from '../trade/ticket/GuardSettings';
import { ConfirmOrdersSetting } from './ConfirmOrdersSetting';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const mainSettings = (initial: Partial<TradeSettings> = {}) => {
  let stored: TradeSettings = { ...DEFAULT_TRADE_SETTINGS, ...initial };
  const desk = installFakeDesk({
    'trade.settings': () => stored,
    'trade.updateSettings': (input) => {
      stored = input as TradeSettings;
      return stored;
    },
  });
  return { desk, stored: () => stored };
};

describe('one "confirm every order" setting', () => {
  it('Settings → Safety switches the setting the tickets read (main’s trade settings)', async () => {
    const main = mainSettings();
    renderWithQuery(<ConfirmOrdersSetting />);
    const box = (await screen.findByTestId('pref-confirm-orders')) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(false);
    await userEvent.click(box);
    await waitFor(() => expect(main.stored().confirmOrders).toBe(true));
    await waitFor(() => expect(box.checked).toBe(true));
  });

  it('the trade screen’s order guards no longer have a second checkbox; they say where the setting is', () => {
    mainSettings();
    renderWithQuery(
      <GuardSettings settings={{ ...DEFAULT_TRADE_SETTINGS, confirmOrders: true }} onSave={() => {}} saving={false} />,
    );
    expect(screen.queryByRole('checkbox', { name: /confirm/i })).toBeNull();
    expect(screen.getByTestId('guard-confirm-orders').textContent).toMatch(
      /Every order is reviewed.*Settings → Safety/,
    );
  });

  it('migrates the old preference: a stored "on" switches main’s setting on, then the old value is forgotten', async () => {
    localStorage.setItem(
      'treasury-desk.prefs',
      JSON.stringify({ state: { theme: 'light', confirmOrders: true }, version: 1 }),
    );
    await act(async () => {
      await usePrefs.persist.rehydrate();
    });
    expect(usePrefs.getState().legacyConfirmOrders).toBe(true);
    expect(usePrefs.getState().theme).toBe('light');
    const main = mainSettings({ confirmOrders: false });
    renderWithQuery(<PrefsMigration />);
    await waitFor(() => expect(main.stored().confirmOrders).toBe(true));
    await waitFor(() => expect(usePrefs.getState().legacyConfirmOrders).toBeUndefined());
    expect(JSON.parse(localStorage.getItem('treasury-desk.prefs') ?? '{}').state).not.toHaveProperty('confirmOrders');
  });

  it('a stored "off" changes nothing (the old flag never did anything)', async () => {
    localStorage.setItem('treasury-desk.prefs', JSON.stringify({ state: { confirmOrders: false }, version: 1 }));
    await act(async () => {
      await usePrefs.persist.rehydrate();
    });
    const main = mainSettings({ confirmOrders: true });
    renderWithQuery(<PrefsMigration />);
    await waitFor(() => expect(usePrefs.getState().legacyConfirmOrders).toBeUndefined());
    expect(main.stored().confirmOrders).toBe(true);
    expect(main.desk.callsOf('trade.updateSettings')).toEqual([]);
  });
});
