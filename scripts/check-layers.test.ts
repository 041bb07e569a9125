import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayers, importsOf, ruleBroken } from './check-layers';

const IMPORT = ['im', 'port'].join('');
const REQUIRE = ['re', 'quire'].join('');
const roots: string[] = [];
const repo = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the layer check', () => {
  it('passes a repository that keeps the rule', () => {
    const root = repo({
      'shared/contract/index.ts': "import { z } from 'zod';\nimport { x } from '../ipc/define';\n",
      'renderer/src/App.tsx': "import { contract } from '../../shared/contract';\nimport { useState } from 'react';\n",
      'electron/core/core.ts':
        "import { readFile } from 'node:fs/promises';\nimport { y } from '../../sandbox/server';\n",
      'electron/main/index.ts': "import { app } from 'electron';\n",
    });
    expect(checkLayers(root)).toEqual([]);
  });

  it('catches each kind of violation, with file and line', () => {
    const root = repo({
      'shared/a.ts': "import { z } from 'zod';\nimport fs from 'node:fs';\n",
      'shared/b.ts': "export { thing } from '../electron/core/thing';\n",
      'shared/c.ts': "import React from 'react';\n",
      'renderer/src/d.tsx': "import type { Core } from '../../electron/core/core';\n",
      // Built from parts so this test file itself holds no dynamic import or require call.
      'renderer/src/e.ts': `const s = await ${IMPORT}('../../sandbox/server');\n`,
      'electron/core/f.ts': "import { app } from 'electron';\n",
      'electron/shell/g.ts': `const { BrowserWindow } = ${REQUIRE}('electron');\n`,
      'sandbox/h.ts': "import { x } from '../renderer/src/lib/format';\n",
    });
    const found = checkLayers(root).map((v) => `${v.file}:${v.line}`);
    expect(found.sort()).toEqual(
      [
        'shared/a.ts:2',
        'shared/b.ts:1',
        'shared/c.ts:1',
        'renderer/src/d.tsx:1',
        'renderer/src/e.ts:1',
        'electron/core/f.ts:1',
        'electron/shell/g.ts:1',
        'sandbox/h.ts:1',
      ].sort(),
    );
  });

  it('ignores imports inside comments and words inside strings', () => {
    expect(
      importsOf("/* import 'electron' */\n// import x from 'electron'\nconst s = \"may import 'electron'\";"),
    ).toEqual([]);
  });

  it('lets tests in shared/ use test tools', () => {
    expect(ruleBroken('shared/trade/book.test.ts', 'vitest')).toBeUndefined();
    expect(ruleBroken('shared/trade/book.ts', 'vitest')).toBeDefined();
  });

  it('finds multi-line and type-only imports', () => {
    const found = importsOf("import {\n  a,\n  b,\n} from 'electron';\nimport type { C } from '../x';\n");
    expect(found.map((i) => i.specifier)).toEqual(['electron', '../x']);
  });
});
