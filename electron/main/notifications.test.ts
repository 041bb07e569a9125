import { beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

const fake = vi.hoisted(() => ({
  supported: true,
  shown: [] as { options: { title: string; body: string }; listeners: Map<string, Listener> }[],
}));

vi.mock('electron', () => {
  class Notification {
    static isSupported = () => fake.supported;
    readonly listeners = new Map<string, Listener>();
    constructor(readonly options: { title: string; body: string }) {}
    on(name: string, listener: Listener) {
      this.listeners.set(name, listener);
      return this;
    }
    show() {
      fake.shown.push(this);
    }
  }
  return { Notification };
});

const { createElectronNotifications } = await import('./notifications');

const fakeWindow = (minimized: boolean) => ({
  isMinimized: vi.fn(() => minimized),
  restore: vi.fn(),
  show: vi.fn(),
  focus: vi.fn(),
});

describe('Electron OS notifications', () => {
  beforeEach(() => {
    fake.supported = true;
    fake.shown.length = 0;
  });

  it('shows the title and body it is given, and a click brings the window forward', () => {
    const win = fakeWindow(true);
    const capability = createElectronNotifications(() => win as never);
    expect(capability.unavailableReason).toBeUndefined();
    capability.showOsNotification({ title: 'Deposit 12.5 USDT · Local sandbox', body: 'Done (DONE)' });
    expect(fake.shown).toHaveLength(1);
    expect(fake.shown[0]?.options).toEqual({ title: 'Deposit 12.5 USDT · Local sandbox', body: 'Done (DONE)' });
    expect(win.focus).not.toHaveBeenCalled();
    fake.shown[0]?.listeners.get('click')?.();
    expect(win.restore).toHaveBeenCalled();
    expect(win.show).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
  });

  it('a click after the window closed does nothing (no crash)', () => {
    const capability = createElectronNotifications(() => undefined);
    capability.showOsNotification({ title: 't', body: 'b' });
    expect(() => fake.shown[0]?.listeners.get('click')?.()).not.toThrow();
  });

  it('says why when the system cannot show notifications, and shows none', () => {
    fake.supported = false;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const capability = createElectronNotifications(() => undefined);
    expect(capability.unavailableReason).toMatch(/does not support/);
    capability.showOsNotification({ title: 't', body: 'b' });
    expect(fake.shown).toHaveLength(0);
    warn.mockRestore();
  });
});
