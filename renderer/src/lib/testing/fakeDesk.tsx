/**
 * Component-test helper: a `window.desk` whose operations are answered by the test, recording
 * every call, and a render with a fresh react-query client.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { DeskOperation } from '../../../../shared/contract';
import type { Result } from '../../../../shared/ipc/result';

export type Answer = (input: unknown) => unknown;

export interface FakeDesk {
  readonly calls: { readonly operation: string; readonly input: unknown }[];
  callsOf(operation: DeskOperation): unknown[];
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
  const desk = new Proxy({}, { get: (_t, name: string) => (name === 'on' ? () => () => {} : area(name)) });
  Object.defineProperty(window, 'desk', { value: desk, configurable: true });
  return { calls, callsOf: (operation) => calls.filter((c) => c.operation === operation).map((c) => c.input) };
};

export const renderWithQuery = (ui: ReactElement) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
};
