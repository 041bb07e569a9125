/**
 * The renderer's only way to main: `window.desk`, typed from the shared contract. Screens use
 * `call()` (or the react-query helpers below), which unwraps the Result and throws a
 * DeskCallError carrying the typed IpcError, so every screen renders failures the same way.
 */
import {
  type UseMutationOptions,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import type { Contract, Desk, DeskOperation, EventName, Events } from '../../../shared/contract';
import type { InputOf, OutputOf } from '../../../shared/ipc/define';
import type { IpcError, IpcErrorCode, Result } from '../../../shared/ipc/result';
import { trackInFlight } from './inFlight';

declare global {
  interface Window {
    /** Exposed by the preload (Electron) or the fallback shell's bridge (Chromium). */
    readonly desk?: Desk;
  }
}

/** The contract entry behind an "area.operation" name. */
type DefinitionOf<N extends DeskOperation> = N extends `${infer A extends keyof Contract & string}.${infer O}`
  ? O extends keyof Contract[A]
    ? Contract[A][O]
    : never
  : never;

export type DeskInput<N extends DeskOperation> = InputOf<DefinitionOf<N>>;
export type DeskOutput<N extends DeskOperation> = OutputOf<DefinitionOf<N>>;
export type DeskEventPayload<N extends EventName> = z.output<Events[N]>;

/** A failed operation, with everything the screen needs to explain it. */
export class DeskCallError extends Error {
  readonly operation: string;
  readonly error: IpcError;

  constructor(operation: string, error: IpcError) {
    super(error.message);
    this.name = 'DeskCallError';
    this.operation = operation;
    this.error = error;
  }

  get code(): IpcErrorCode {
    return this.error.code;
  }
  get label(): string | undefined {
    return this.error.label;
  }
  get requestId(): string | undefined {
    return this.error.requestId;
  }
  get advice(): string | undefined {
    return this.error.advice;
  }
  get fields(): Record<string, string> | undefined {
    return this.error.fields;
  }
}

export const isDeskCallError = (value: unknown): value is DeskCallError => value instanceof DeskCallError;

/** The bridge, or a clear error when the page runs outside the app (e.g. opened in a browser tab). */
export const getDesk = (): Desk => {
  const desk = window.desk;
  if (desk === undefined) {
    throw new DeskCallError('(bridge)', {
      code: 'INTERNAL',
      message: 'The app bridge is missing: this page must be opened by Treasury Desk, not a browser tab.',
    });
  }
  return desk;
};

type Invoker = (input: unknown) => Promise<Result<unknown>>;

/**
 * Calls one operation; resolves with its value or throws a DeskCallError. `action: true` marks
 * something the person started (useDeskMutation sets it), as opposed to a background read.
 */
export const call = async <N extends DeskOperation>(
  operation: N,
  input: DeskInput<N>,
  options: { readonly action?: boolean } = {},
): Promise<DeskOutput<N>> => {
  const dot = operation.indexOf('.');
  const area = (getDesk() as unknown as Record<string, Record<string, Invoker> | undefined>)[operation.slice(0, dot)];
  const invoke = area?.[operation.slice(dot + 1)];
  if (typeof invoke !== 'function') {
    throw new DeskCallError(operation, {
      code: 'UNKNOWN_OPERATION',
      message: `This version of the app has no operation “${operation}”.`,
    });
  }
  const result = await trackInFlight(operation, () => invoke(input), options);
  if (!result.ok) throw new DeskCallError(operation, result.error);
  return result.value as DeskOutput<N>;
};

/** Query key of an operation: the operation name then its input. Invalidate by `[name]`. */
export type DeskQueryKey<N extends DeskOperation> = readonly [N, DeskInput<N>];

/** react-query around a read operation, e.g. `useDeskQuery(['balances.list', {}])`. */
export const useDeskQuery = <N extends DeskOperation, TData = DeskOutput<N>>(
  key: DeskQueryKey<N>,
  options?: Omit<UseQueryOptions<DeskOutput<N>, DeskCallError, TData, DeskQueryKey<N>>, 'queryKey' | 'queryFn'>,
) =>
  useQuery<DeskOutput<N>, DeskCallError, TData, DeskQueryKey<N>>({
    queryKey: key,
    queryFn: () => call(key[0], key[1]),
    ...options,
  });

/**
 * react-query around a write operation. Never retried automatically: a retried money movement
 * could run twice. `invalidates` lists operation names whose queries to refresh on success.
 */
export const useDeskMutation = <N extends DeskOperation, TContext = unknown>(
  operation: N,
  options?: Omit<UseMutationOptions<DeskOutput<N>, DeskCallError, DeskInput<N>, TContext>, 'mutationFn' | 'retry'> & {
    invalidates?: readonly DeskOperation[];
  },
) => {
  const client = useQueryClient();
  const { invalidates, onSuccess, ...rest } = options ?? {};
  return useMutation<DeskOutput<N>, DeskCallError, DeskInput<N>, TContext>({
    ...rest,
    retry: false,
    mutationFn: (input) => call(operation, input, { action: true }),
    onSuccess: async (...args) => {
      await Promise.all((invalidates ?? []).map((name) => client.invalidateQueries({ queryKey: [name] })));
      await onSuccess?.(...args);
    },
  });
};

/** Subscribes to a main→renderer event for the component's lifetime. */
export const useDeskEvent = <N extends EventName>(name: N, listener: (payload: DeskEventPayload<N>) => void): void => {
  // Keep the latest listener without resubscribing on every render.
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const desk = window.desk;
    if (desk === undefined) return undefined;
    return desk.on(name, (payload) => latest.current(payload));
  }, [name]);
};
