import { describe, expect, it } from 'vitest';
import {
  findDocsDrift,
  LAYER_TABLE_END,
  LAYER_TABLE_START,
  layerTable,
  loadCruiserConfig,
  quotedSpans,
  type RepoView,
  repoView,
  withLayerTable,
} from './docsDrift';

const ROOT = process.cwd();

/** A repository view with one doc's text replaced (or added). */
const withDoc = (base: RepoView, doc: string, text: string): RepoView => ({
  files: base.files.includes(doc) ? base.files : [...base.files, doc],
  read: (path) => (path === doc ? text : base.read(path)),
  ignored: base.ignored,
});

describe('docs that cannot drift', () => {
  const repo = repoView(ROOT);

  it('every path and code name quoted in docs/ and README.md exists (many are checked)', () => {
    expect(findDocsDrift(repo)).toEqual([]);
    const spans = repo.files
      .filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')))
      .flatMap((doc) => quotedSpans(repo.read(doc)));
    expect(spans.length).toBeGreaterThan(1000);
  });

  it('a renamed file, a moved folder, a deleted function and a broken link are each caught, with doc and line', () => {
    const doc = 'docs/planted.md';
    // Built from parts so that this test file does not itself put the planted names in the code.
    const plantedCall = `core.idle${'Now'}()`;
    const plantedName = `createCore${'Twice'}`;
    const text = [
      'The engine is `core/movements/engin.ts`.',
      'The queue lives in `core/queue/`.',
      `Call \`${plantedCall}\` and \`${plantedName}\` to start.`,
      'See [the old doc](old-architecture.md).',
      'Fine: `core/movements/engine.ts`, `movements/engine.ts`, `core.idle()`, `createCore`, `out/main/core.js`, `../shared/spec/trading-api-v4.md`, [arch](architecture.md).',
    ].join('\n');
    const problems = findDocsDrift(withDoc(repo, doc, text));
    expect(problems.map((p) => [p.line, p.quoted])).toEqual([
      [1, 'core/movements/engin.ts'],
      [2, 'core/queue/'],
      [3, plantedCall],
      [3, plantedName],
      [4, 'old-architecture.md'],
    ]);
  });

  it('the layer table in docs/architecture.md is the one generated from .dependency-cruiser.cjs', () => {
    const architecture = repo.read('docs/architecture.md');
    const table = layerTable(loadCruiserConfig(ROOT));
    expect(withLayerTable(architecture, table)).toBe(architecture);
    for (const rule of loadCruiserConfig(ROOT).forbidden) expect(table).toContain(`\`${rule.name}\``);
    // A rule whose reason changed makes the doc stale.
    const edited = layerTable({ forbidden: [{ name: 'no-circular', comment: 'Cycles are fine.' }] });
    expect(withLayerTable(architecture, edited)).not.toBe(architecture);
    expect(() => withLayerTable(architecture.replace(LAYER_TABLE_END, ''), table)).toThrow(/markers/);
    expect(architecture).toContain(LAYER_TABLE_START);
  });
});
