/**
 * Every kind of movement the engine knows, one adapter each (adapters/<kind>.ts). Adding a kind is
 * one new adapter file and its line here (and its name in shared/contract/activity.ts
 * `MovementKind`, which this list must cover exactly: the type check says so).
 */
import type { MovementAdapter, MovementKind } from './adapter';
import { mainSub } from './adapters/mainSub';
import { ownTransfer } from './adapters/ownTransfer';
import { push } from './adapters/push';
import { spotOrder } from './adapters/spotOrder';
import { subSub } from './adapters/subSub';
import { withdrawal } from './adapters/withdrawal';

export const ADAPTERS = {
  withdrawal,
  push,
  transfer: ownTransfer,
  subAccountTransfer: mainSub,
  subToSubTransfer: subSub,
  spotOrder,
} as const satisfies { readonly [K in MovementKind]: MovementAdapter<K, never> };

type Registry = typeof ADAPTERS;

/** The parameters each kind is journaled and sent with (the platform's request body). */
export type MovementParams = {
  [K in MovementKind]: Registry[K] extends MovementAdapter<K, infer P> ? P : never;
};

/** The adapter of a kind (for a row read back from the journal). */
export const adapterOf = (kind: MovementKind): MovementAdapter<MovementKind, unknown> => {
  const adapter = (ADAPTERS as Record<string, MovementAdapter<MovementKind, never>>)[kind];
  if (adapter === undefined) throw new Error(`no adapter for movement kind ${kind}`);
  return adapter as unknown as MovementAdapter<MovementKind, unknown>;
};
