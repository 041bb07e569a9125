/** Remembers the window's size and position between runs (a small JSON file in userData). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserWindow, type Rectangle, screen } from 'electron';

export interface WindowState {
  readonly bounds: Rectangle;
  readonly maximized: boolean;
}

const DEFAULT: WindowState = { bounds: { x: 0, y: 0, width: 1360, height: 860 }, maximized: false };

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
    const bounds = visible
      ? saved.bounds
      : { ...DEFAULT.bounds, width: saved.bounds.width, height: saved.bounds.height };
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
  window.on('close', save);
};
