/**
 * `tsx scripts/make-icon.ts`: renders assets/icon.svg to assets/icon.png (512×512, transparent)
 * with the system Chromium, for electron-builder (which derives .ico/.icns from the PNG).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { findChrome, NO_CHROME_ADVICE } from '../shell/chrome';

const ASSETS = resolve(import.meta.dirname, '../assets');

const executablePath = findChrome();
if (executablePath === undefined) throw new Error(NO_CHROME_ADVICE);
const svg = await readFile(join(ASSETS, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 512, height: 512 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(ASSETS, 'icon.png'), omitBackground: true });
  console.log('assets/icon.png written');
} finally {
  await browser.close();
}
