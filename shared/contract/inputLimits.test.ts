/**
 * Every text and list a window can send main is capped: a compromised or buggy renderer cannot
 * store megabytes (or copy them into the append-only audit log on every call).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract } from './index';

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Paths ("funding.withdraw.address") of strings or arrays without a maximum length. */
const uncapped = (schema: z.ZodType, path: string, seen = new Set<z.ZodType>()): string[] => {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const inner = (s: unknown, p = path) => uncapped(s as z.ZodType, p, seen);
  const checks = (def.checks as { _zod: { def: { check: string } } }[] | undefined) ?? [];
  const hasMax = checks.some((c) => ['max_length', 'length_equals'].includes(c._zod.def.check));
  switch (def.type) {
    case 'string':
      // A fixed format (uuid) bounds it too; otherwise it needs a maximum length.
      return hasMax ||
        def.format === 'uuid' ||
        checks.some((c) => (c._zod.def as { format?: string }).format === 'uuid')
        ? []
        : [path];
    case 'array':
      return [...(hasMax ? [] : [`${path}[]`]), ...inner(def.element, `${path}[]`)];
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([k, v]) => inner(v, `${path}.${k}`));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'union':
    case 'discriminated_union':
      return (def.options as z.ZodType[]).flatMap((o) => inner(o));
    case 'record':
      return [...inner(def.keyType, `${path}{key}`), ...inner(def.valueType, `${path}{}`)];
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'tuple':
      return (def.items as z.ZodType[]).flatMap((item, i) => inner(item, `${path}[${i}]`));
    default:
      return [];
  }
};

describe('IPC inputs', () => {
  it('cap the length of every text and every list', () => {
    const found = Object.entries(contract).flatMap(([area, operations]) =>
      Object.entries(operations).flatMap(([name, op]) => uncapped(op.input, `${area}.${name}`)),
    );
    expect(found).toEqual([]);
  });
});
