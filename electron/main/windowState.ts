/** Remembers the window's size and position between runs (a small JSON file in userData). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserWindow, type Rectangle, screen } from 'electron';

export interface WindowState {
  /** Without a position Electron centres the window (first run, or its screen is gone). */
  readonly bounds: Pick<Rectangle, 'width' | 'height'> & Partial<Pick<Rectangle, 'x' | 'y'>>;
  readonly maximized: boolean;
}

const DEFAULT: WindowState = { bounds: { width: 1360, height: 860 }, maximized: false };
/** Moves and resizes are saved once they settle, so a crash does not forget them. */
const SAVE_DELAY_MS = 500;

const isRectangle = (value: unknown): value is Rectangle =>
  typeof value === 'object' &&
  value !== null &&
  ['x', 'y', 'width', 'height'].every((k) => Number.isFinite((value as Record<string, unknown>)[k]));

export const loadWindowState = (dataDir: string): WindowState => {
  try {
    const saved = JSON.parse(readFileSync(join(dataDir, 'window-state.json'), 'utf8')) as Partial<WindowState>;
    if (!isRectangle(saved.bounds)) return DEFAULT;
    // Only reuse a position that is still on a connected screen (monitors come and go).
    const visible = screen.getAllDisplays().some((display) => {
      const area = display.workArea;
      const b = saved.bounds as Rectangle;
      return (
        b.x < area.x + area.width && b.x + b.width > area.x && b.y < area.y + area.height && b.y + b.height > area.y
      );
    });
    const bounds = visible ? saved.bounds : { width: saved.bounds.width, height: saved.bounds.height };
    return { bounds, maximized: saved.maximized === true };
  } catch {
    return DEFAULT;
  }
};

export const trackWindowState = (window: BrowserWindow, dataDir: string): void => {
  const save = () => {
    const state: WindowState = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    try {
      writeFileSync(join(dataDir, 'window-state.json'), JSON.stringify(state));
    } catch {
      // Not remembering a window position is not worth bothering anyone about.
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const saveSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  window.on('resize', saveSoon);
  window.on('move', saveSoon);
  window.on('maximize', saveSoon);
  window.on('unmaximize', saveSoon);
  window.on('close', () => {
    clearTimeout(timer);
    save();
  });
};
