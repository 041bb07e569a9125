/** Window size and position between runs, against a stand-in 'electron' screen with one display. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
}));

const { loadWindowState, trackWindowState } = await import('./windowState');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-window-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const save = (state: object) => writeFileSync(join(dir, 'window-state.json'), JSON.stringify(state));

describe('window state', () => {
  it('first run: the default size and no position, so the window opens centred', () => {
    expect(loadWindowState(dir)).toEqual({ bounds: { width: 1360, height: 860 }, maximized: false });
  });

  it('reuses a saved position on a connected screen; keeps only the size when that screen is gone', () => {
    save({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: true });
    expect(loadWindowState(dir)).toEqual({ bounds: { x: 100, y: 50, width: 1200, height: 800 }, maximized: true });
    save({ bounds: { x: 4000, y: 50, width: 1200, height: 800 }, maximized: false });
    expect(loadWindowState(dir).bounds).toEqual({ width: 1200, height: 800 });
  });

  it('saves a move once it settles, not only on close, so a crash does not forget it', () => {
    vi.useFakeTimers();
    const listeners = new Map<string, () => void>();
    let bounds = { x: 10, y: 20, width: 1000, height: 700 };
    const window = {
      on: (event: string, listener: () => void) => listeners.set(event, listener),
      getNormalBounds: () => bounds,
      isMaximized: () => false,
    };
    trackWindowState(window as never, dir);
    bounds = { x: 300, y: 200, width: 1000, height: 700 };
    listeners.get('move')?.();
    vi.advanceTimersByTime(1_000);
    expect(JSON.parse(readFileSync(join(dir, 'window-state.json'), 'utf8'))).toEqual({ bounds, maximized: false });
    bounds = { x: 300, y: 200, width: 1100, height: 750 };
    listeners.get('close')?.();
    expect(JSON.parse(readFileSync(join(dir, 'window-state.json'), 'utf8')).bounds).toEqual(bounds);
  });
});
