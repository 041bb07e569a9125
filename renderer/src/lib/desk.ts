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
import type { DeskCallOptions, InputOf, OutputOf } from '../../../shared/ipc/define';
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

type Invoker = (input: unknown, options?: DeskCallOptions) => Promise<Result<unknown>>;

/**
 * Calls one operation; resolves with its value or throws a DeskCallError. `action: true` marks
 * something the person started (useDeskMutation sets it), as opposed to a background read.
 * `signal`: aborting it asks main to stop the call (an export stops and answers `cancelled`; what
 * cannot stop, such as a money movement under way, finishes and answers as usual).
 */
export const call = async <N extends DeskOperation>(
  operation: N,
  input: DeskInput<N>,
  options: { readonly action?: boolean; readonly signal?: AbortSignal } = {},
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
  const { signal } = options;
  if (signal === undefined) return unwrap(operation, await trackInFlight(operation, () => invoke(input), options));
  // The call gets a name the page can cancel it by (window.desk.cancel).
  const callId = crypto.randomUUID();
  const cancel = () => getDesk().cancel(callId);
  try {
    const answer = trackInFlight(operation, () => invoke(input, { callId }), options);
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
    return unwrap(operation, await answer);
  } finally {
    signal.removeEventListener('abort', cancel);
  }
};

const unwrap = <N extends DeskOperation>(operation: N, result: Result<unknown>): DeskOutput<N> => {
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
 * `cancel()` asks main to stop the running call (see `call`'s `signal`).
 */
export const useDeskMutation = <N extends DeskOperation, TContext = unknown>(
  operation: N,
  options?: Omit<UseMutationOptions<DeskOutput<N>, DeskCallError, DeskInput<N>, TContext>, 'mutationFn' | 'retry'> & {
    invalidates?: readonly DeskOperation[];
  },
) => {
  const client = useQueryClient();
  const running = useRef<AbortController | undefined>(undefined);
  const { invalidates, onSuccess, ...rest } = options ?? {};
  const mutation = useMutation<DeskOutput<N>, DeskCallError, DeskInput<N>, TContext>({
    ...rest,
    retry: false,
    mutationFn: (input) => {
      const controller = new AbortController();
      running.current = controller;
      return call(operation, input, { action: true, signal: controller.signal });
    },
    onSuccess: async (...args) => {
      await Promise.all((invalidates ?? []).map((name) => client.invalidateQueries({ queryKey: [name] })));
      await onSuccess?.(...args);
    },
  });
  return { ...mutation, cancel: () => running.current?.abort() };
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
