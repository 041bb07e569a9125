/**
 * Where an export goes in Electron: the native save dialog, opened in the Downloads folder with
 * the suggested (already sanitised) name. The core writes the file; this only asks the person.
 */
import { extname, join } from 'node:path';
import { app, type BrowserWindow, dialog, type SaveDialogOptions } from 'electron';
import type { ChooseSavePath } from '../../core/app/handlers';

export const createChooseSavePath =
  (window: () => BrowserWindow | undefined): ChooseSavePath =>
  async (suggestedName) => {
    const extension = extname(suggestedName).slice(1);
    const options: SaveDialogOptions = {
      title: 'Save export',
      defaultPath: join(app.getPath('downloads'), suggestedName),
      ...(extension ? { filters: [{ name: extension.toUpperCase(), extensions: [extension] }] } : {}),
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const parent = window();
    const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? undefined : result.filePath;
  };
