/**
 * THE fake `window.desk` of the renderer's component tests, typed against the contract's `Desk`:
 * exactly the contract's operations, each answered by the test (every call recorded), and a real
 * `on(event, listener)`: `emit(event, payload)` validates the payload against the contract's event
 * schema, as main does before sending, and calls every listener registered for it. Also a render
 * with a fresh react-query client.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { z } from 'zod';
import {
  type Contract,
  contract,
  type Desk,
  type DeskOperation,
  type EventName,
  events,
} from '../../../../shared/contract';
import type { InputOf } from '../../../../shared/ipc/define';
import type { IpcError, Result } from '../../../../shared/ipc/result';

/** The contract's operation behind "area.operation". */
type OperationOf<N extends DeskOperation> = N extends `${infer A extends keyof Contract & string}.${infer O}`
  ? O extends keyof Contract[A]
    ? Contract[A][O]
    : never
  : never;

/**
 * The test's answer to one operation: the value main would answer (any shape: screens are tested
 * with the fields they read), or a thrown `{ code, message, … }` IpcError to answer `ok: false`.
 */
export type Answer<N extends DeskOperation = DeskOperation> = (input: InputOf<OperationOf<N>>) => unknown;

export type Answers = { readonly [N in DeskOperation]?: Answer<N> };

export interface FakeDeskOptions {
  /** The error of an operation the test did not answer (default UNKNOWN_OPERATION, naming it). */
  readonly unanswered?: (operation: DeskOperation) => IpcError;
}

export interface FakeDesk {
  /** The installed bridge (also `window.desk`). */
  readonly desk: Desk;
  readonly calls: { readonly operation: DeskOperation; readonly input: unknown }[];
  /** The call ids the screen asked to cancel (`window.desk.cancel`), in order. */
  readonly cancelled: string[];
  callsOf<N extends DeskOperation>(operation: N): InputOf<OperationOf<N>>[];
  /**
   * Delivers a main→renderer event to every listener registered with `window.desk.on`, after
   * validating it against the contract's schema (a payload main could not send throws here).
   */
  emit<N extends EventName>(name: N, payload: z.input<(typeof events)[N]>): void;
  /** How many listeners are registered for an event now. */
  listenerCount(name: EventName): number;
}

const isIpcError = (error: unknown): error is IpcError =>
  typeof error === 'object' && error !== null && 'code' in error && 'message' in error;

/** Installs the fake bridge as `window.desk`; operations without an answer fail (see FakeDeskOptions). */
export const installFakeDesk = (answers: Answers, options: FakeDeskOptions = {}): FakeDesk => {
  const calls: { operation: DeskOperation; input: unknown }[] = [];
  const unanswered =
    options.unanswered ?? ((operation: DeskOperation): IpcError => ({ code: 'UNKNOWN_OPERATION', message: operation }));
  const call = async (operation: DeskOperation, input: unknown): Promise<Result<unknown>> => {
    calls.push({ operation, input });
    const answer = answers[operation] as ((input: unknown) => unknown) | undefined;
    if (answer === undefined) return { ok: false, error: unanswered(operation) };
    try {
      return { ok: true, value: await answer(input) };
    } catch (error) {
      if (isIpcError(error)) return { ok: false, error };
      throw error;
    }
  };
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const on = (name: string, listener: (payload: unknown) => void) => {
    if (!Object.hasOwn(events, name)) throw new Error(`window.desk.on: '${name}' is not an event of the contract`);
    const set = listeners.get(name) ?? new Set();
    listeners.set(name, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };
  // Exactly the contract's areas and operations, as the preload exposes them.
  const areas = Object.fromEntries(
    Object.entries(contract).map(([area, operations]) => [
      area,
      Object.fromEntries(
        Object.keys(operations).map((op) => [op, (input: unknown) => call(`${area}.${op}` as DeskOperation, input)]),
      ),
    ]),
  );
  const cancelled: string[] = [];
  const cancel = (callId: string) => {
    cancelled.push(callId);
  };
  const desk = { ...areas, on, cancel } as unknown as Desk;
  Object.defineProperty(window, 'desk', { value: desk, configurable: true });
  return {
    desk,
    calls,
    cancelled,
    callsOf: (operation) => calls.filter((c) => c.operation === operation).map((c) => c.input as never),
    emit: (name, payload) => {
      const parsed = events[name].safeParse(payload);
      if (!parsed.success) throw new Error(`fake desk: '${name}' payload breaks the contract: ${parsed.error.message}`);
      for (const listener of [...(listeners.get(name) ?? [])]) listener(parsed.data);
    },
    listenerCount: (name) => listeners.get(name)?.size ?? 0,
  };
};

export const renderWithQuery = (ui: ReactElement, client = newQueryClient()) =>
  render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);

export const newQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
