/**
 * Component-test helper: a `window.desk` whose operations are answered by the test, recording
 * every call, and a render with a fresh react-query client.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { z } from 'zod';
import type { DeskOperation, EventName, Events } from '../../../../shared/contract';
import type { Result } from '../../../../shared/ipc/result';

export type Answer = (input: unknown) => unknown;

export interface FakeDesk {
  readonly calls: { readonly operation: string; readonly input: unknown }[];
  callsOf(operation: DeskOperation): unknown[];
  /** Delivers a main→renderer event to every listener registered with `window.desk.on`. */
  emit<N extends EventName>(name: N, payload: z.input<Events[N]>): void;
}

/** Installs the fake bridge; operations without an answer fail like an unknown operation would. */
export const installFakeDesk = (answers: Partial<Record<DeskOperation, Answer>>): FakeDesk => {
  const calls: { operation: string; input: unknown }[] = [];
  const area = (name: string) =>
    new Proxy(
      {},
      {
        get:
          (_target, op: string) =>
          async (input: unknown): Promise<Result<unknown>> => {
            const operation = `${name}.${op}`;
            calls.push({ operation, input });
            const answer = answers[operation as DeskOperation];
            if (answer === undefined) return { ok: false, error: { code: 'UNKNOWN_OPERATION', message: operation } };
            try {
              return { ok: true, value: await answer(input) };
            } catch (error) {
              if (typeof error === 'object' && error !== null && 'code' in error) {
                return { ok: false, error: error as Result<never> extends { error: infer E } ? E : never };
              }
              throw error;
            }
          },
      },
    );
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const on = (name: string, listener: (payload: unknown) => void) => {
    const set = listeners.get(name) ?? new Set();
    listeners.set(name, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  const desk = new Proxy({}, { get: (_t, name: string) => (name === 'on' ? on : area(name)) });
  Object.defineProperty(window, 'desk', { value: desk, configurable: true });
  return {
    calls,
    callsOf: (operation) => calls.filter((c) => c.operation === operation).map((c) => c.input),
    emit: (name, payload) => {
      for (const listener of listeners.get(name) ?? []) listener(payload);
    },
  };
};

export const renderWithQuery = (ui: ReactElement, client = newQueryClient()) =>
  render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);

export const newQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
