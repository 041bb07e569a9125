/**
 * Building blocks of the IPC contract. An operation is a pair of zod schemas; an area is a
 * record of operations; the contract is a record of areas. Types for the renderer's
 * `window.desk` and for main's handler map are derived from the same object, so a missing or
 * mistyped handler fails the type check.
 */
import type { z } from 'zod';
import type { CancelSignal } from './channel';
import type { Result } from './result';

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
  /** One line for docs/architecture.md and error messages. */
  readonly summary: string;
}

export const operation = <I extends z.ZodType, O extends z.ZodType>(
  summary: string,
  input: I,
  output: O,
): Operation<I, O> => ({ summary, input, output });

export type Area = Record<string, Operation>;
export type ContractShape = Record<string, Area>;
export type EventShape = Record<string, z.ZodType>;

/** "area.operation" for every operation of a contract. */
export type OperationName<C extends ContractShape> = {
  [A in keyof C & string]: `${A}.${keyof C[A] & string}`;
}[keyof C & string];

export type InputOf<Op> = Op extends Operation<infer I, z.ZodType> ? z.input<I> : never;
export type ParsedInputOf<Op> = Op extends Operation<infer I, z.ZodType> ? z.output<I> : never;
export type OutputOf<Op> = Op extends Operation<z.ZodType, infer O> ? z.output<O> : never;
/** What a handler may return: the output schema's input side (it is parsed before leaving main). */
export type RawOutputOf<Op> = Op extends Operation<z.ZodType, infer O> ? z.input<O> : never;

/** Facts about the caller that a handler may use (never trust the payload for these). */
export interface CallContext {
  /** The operation being served, "area.operation". */
  readonly operation: string;
  /**
   * Aborted when the caller cancels the call (the person stopped an export, a screen no longer
   * needs a read) or stops waiting for it. A handler that can stop early looks at it; one that
   * moves money never does: it finishes and says what happened.
   */
  readonly signal?: CancelSignal;
}

/** Main side: one async function per operation, receiving the parsed input. */
export type Handlers<C extends ContractShape> = {
  [A in keyof C]: {
    [O in keyof C[A]]: (input: ParsedInputOf<C[A][O]>, ctx: CallContext) => Promise<RawOutputOf<C[A][O]>>;
  };
};

/** How the window makes one call, beyond its input: plain data, it crosses the bridge. */
export interface DeskCallOptions {
  /** Names the call, so that `desk.cancel(callId)` can ask main to stop it (an export, a long read). */
  readonly callId?: string;
  /** How long to wait for the answer, ms; then the call ends with OUTCOME_UNKNOWN (default DESK_CALL_TIMEOUT_MS, ./deskCalls.ts). */
  readonly timeoutMs?: number;
}

/** Renderer side: the same operations, each resolving to a Result (never throwing across IPC). */
export type DeskApi<C extends ContractShape, E extends EventShape> = {
  readonly [A in keyof C]: {
    readonly [O in keyof C[A]]: (
      input: InputOf<C[A][O]>,
      options?: DeskCallOptions,
    ) => Promise<Result<OutputOf<C[A][O]>>>;
  };
} & {
  /** Subscribe to a main→renderer event; returns the unsubscribe function. */
  readonly on: <N extends keyof E & string>(name: N, listener: (payload: z.output<E[N]>) => void) => () => void;
  /**
   * Asks main to stop the call made with this `callId`. The call still ends with main's answer
   * (an export answers `cancelled`; a money movement already under way finishes and says so).
   */
  readonly cancel: (callId: string) => void;
};

/** Every operation name of a contract object, in declaration order. */
export const operationNames = <C extends ContractShape>(contract: C): OperationName<C>[] =>
  Object.entries(contract).flatMap(([area, ops]) => Object.keys(ops).map((op) => `${area}.${op}` as OperationName<C>));

export const lookupOperation = (contract: ContractShape, name: string): Operation | undefined => {
  const dot = name.indexOf('.');
  if (dot <= 0) return undefined;
  const area = name.slice(0, dot);
  const op = name.slice(dot + 1);
  if (!Object.hasOwn(contract, area)) return undefined;
  const ops = contract[area] as Area;
  return Object.hasOwn(ops, op) ? ops[op] : undefined;
};
