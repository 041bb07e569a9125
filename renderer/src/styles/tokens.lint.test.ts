/**
 * The scales rule, checked: every length in the renderer's stylesheets is a token (a custom property
 * of styles/app.css, or a screen's own layout size named at the top of its stylesheet), so spacing,
 * radius and type stay on one scale. Allowed as written: 0, 1px hairlines (also inside calc()), and
 * units that follow the text or the window (em, ch, %, vw, vh, fr). Media queries cannot read
 * custom properties, so their breakpoints are written out.
 */
import { describe, expect, it } from 'vitest';

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** A length in px or rem (em, ch, %, vw, vh and fr are relative and allowed). */
const RAW_LENGTH = /(?<![\w.-])\d*\.?\d+(px|rem)\b/g;

/** Every raw length in one stylesheet, except token definitions, media queries and 1px. */
const findRawLengths = (file: string, source: string): Finding[] => {
  const findings: Finding[] = [];
  const text = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  text.split('\n').forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('--') || trimmed.startsWith('@media')) return;
    const raw = [...trimmed.matchAll(RAW_LENGTH)].map((m) => m[0]).filter((length) => length !== '1px');
    if (raw.length > 0) findings.push({ file, line: index + 1, text: trimmed });
  });
  return findings;
};

// The renderer's stylesheets, as text (Vite's glob: no Node in renderer tests).
const SHEETS = import.meta.glob<string>(['../**/*.css'], { query: '?raw', import: 'default', eager: true });

describe('lengths in the stylesheets come from the scales', () => {
  it('finds no raw length in renderer/src/**/*.css', () => {
    expect(Object.keys(SHEETS).length).toBeGreaterThan(3);
    const report = Object.entries(SHEETS).flatMap(([path, source]) =>
      findRawLengths(path.replace(/^\.\.\//, 'renderer/src/'), source).map((f) => `${f.file}:${f.line} ${f.text}`),
    );
    expect(report, 'Use a token of styles/app.css (--space-*, --radius-*, --text-*, …)').toEqual([]);
  });

  it('fails on raw lengths and lets tokens, hairlines, relative units and breakpoints through', () => {
    const sample = [
      '.a {', // 1
      '  padding: 10px 12px;', // 2
      '  font-size: 0.75rem;', // 3
      '  gap: var(--space-2);', // 4
      '  border: 1px solid var(--border);', // 5
      '  height: calc(var(--control-height) - 2 * 1px);', // 6
      '  letter-spacing: 0.04em;', // 7
      '  --own-width: 18rem;', // 8
      '  width: min(var(--width-form), 80vw);', // 9
      '  /* was 14px */', // 10
      '}', // 11
      '@media (max-width: 980px) {', // 12
      '  .a { border-radius: 3px; }', // 13
      '}', // 14
    ].join('\n');
    expect(findRawLengths('sample.css', sample).map((f) => f.line)).toEqual([2, 3, 13]);
  });
});
