/**
 * The single gate every IPC call passes through, in Electron and in the Chromium fallback shell
 * alike: check the sender, find the operation, validate the payload, run the handler, validate
 * what it returns. Handlers never see an unvalidated payload or an untrusted caller.
 */
import type { z } from 'zod';
import type { CancelSignal } from '../../shared/ipc/channel';
import {
  type CallContext,
  type ContractShape,
  type Handlers,
  lookupOperation,
  type Operation,
} from '../../shared/ipc/define';
import { fail, type IpcError, type Result } from '../../shared/ipc/result';
import { DeskFailure, isConvertibleToIpcError } from '../errors';
import type { LockGate } from './appLock';

/** What the transport knows about who sent a call. */
export interface SenderInfo {
  /** URL of the frame that sent the call. */
  readonly url: string;
  /** Whether that frame is the top-level frame of our window. */
  readonly isMainFrame: boolean;
}

export interface DispatcherOptions {
  /** Origins our renderer is served from, e.g. "app://desk". Nothing else may call main. */
  readonly trustedOrigins: readonly string[];
  /** Where unexpected handler errors go (never to the renderer). */
  readonly logError?: (operation: string, error: unknown) => void;
  /**
   * The app lock: while closed, every operation outside the `app` area is refused with LOCKED;
   * the others are counted while they run, so that locking waits for them.
   */
  readonly lock?: LockGate;
  /**
   * Who may call what (operators and roles). Without it every operation outside the `app` area is
   * gated by the lock and nothing else.
   */
  readonly access?: {
    /** Answered also while locked or signed out (liveness, the lock, signing in). */
    isOpen(operation: string): boolean;
    /** Undefined when the signed-in operator may call it; else the refusal (LOCKED, NOT_ALLOWED). */
    refuse(operation: string): IpcError | undefined;
  };
}

/** The area that stays usable while locked (ping, info, saving a file, the lock itself). */
const ALWAYS_OPEN_AREA = 'app';

/** What a transport knows about a call beyond its payload and sender. */
export interface DispatchOptions {
  /** Aborted when the caller cancels (handed to the handler as `ctx.signal`). */
  readonly signal?: CancelSignal;
}

export type Dispatch = (
  operation: string,
  payload: unknown,
  sender: SenderInfo,
  options?: DispatchOptions,
) => Promise<Result<unknown>>;

const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url);
    // Custom schemes such as app:// have an opaque origin ("null"); compare scheme + host instead.
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
};

/**
 * Whether a call comes from our own renderer: its top-level frame, at one of our origins. An
 * iframe, or a page that was navigated elsewhere, is not.
 */
export const createSenderCheck = (trustedOrigins: readonly string[]): ((sender: SenderInfo) => boolean) => {
  const trusted = new Set(trustedOrigins);
  return (sender) => {
    if (!sender.isMainFrame) return false;
    const origin = originOf(sender.url);
    return origin !== undefined && trusted.has(origin);
  };
};

const issuesToFields = (issues: readonly z.core.$ZodIssue[]): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '(payload)';
    fields[key] ??= issue.message;
  }
  return fields;
};

type AnyHandler = (input: unknown, ctx: CallContext) => Promise<unknown>;

const handlerOf = (handlers: unknown, operation: string): AnyHandler | undefined => {
  const [area, name] = splitName(operation);
  return (handlers as Record<string, Record<string, AnyHandler> | undefined>)[area]?.[name];
};

/**
 * The part of every call that any contract shares (the window's operations in the core, the
 * core's calls into the shell): the input parsed with the operation's schema, the handler run with
 * it, its answer parsed with the output schema, errors turned into data.
 */
export const runOperation = async (
  operation: string,
  definition: Operation,
  handlers: unknown,
  payload: unknown,
  call: DispatchOptions,
  options: {
    readonly logError?: (operation: string, error: unknown) => void;
    /** Runs the handler (the app lock counts it); default: as is. */
    readonly track?: <T>(run: () => Promise<T>) => Promise<T>;
  } = {},
): Promise<Result<unknown>> => {
  const input = definition.input.safeParse(payload);
  if (!input.success) {
    return fail({
      code: 'INVALID_INPUT',
      message: 'The request was not valid; nothing was sent.',
      fields: issuesToFields(input.error.issues),
    });
  }
  const handler = handlerOf(handlers, operation);
  if (handler === undefined) {
    return fail({ code: 'UNKNOWN_OPERATION', message: `The operation “${operation}” has no handler.` });
  }
  const context: CallContext = { operation, ...(call.signal ? { signal: call.signal } : {}) };
  try {
    const run = () => handler(input.data, context);
    const raw = await (options.track ? options.track(run) : run());
    const output = definition.output.safeParse(raw);
    if (!output.success) {
      options.logError?.(operation, output.error);
      return fail({ code: 'INTERNAL', message: 'The app produced an answer it could not vouch for; see the log.' });
    }
    return { ok: true, value: output.data };
  } catch (error) {
    if (error instanceof DeskFailure) return fail(error.detail);
    if (isConvertibleToIpcError(error)) return fail(error.toIpcError());
    options.logError?.(operation, error);
    return fail({ code: 'INTERNAL', message: 'Something went wrong inside the app; see the log.' });
  }
};

/**
 * A contract served without a sender or a lock (the shell serving the core's calls): lookup,
 * then runOperation.
 */
export const createContractServer =
  <C extends ContractShape>(
    contract: C,
    /** Handlers of the operations served; an absent one answers UNKNOWN_OPERATION. */
    handlers: { readonly [A in keyof C]?: Partial<Handlers<C>[A]> },
    options: { readonly logError?: (operation: string, error: unknown) => void } = {},
  ) =>
  (operation: string, payload: unknown, call: DispatchOptions = {}): Promise<Result<unknown>> => {
    const definition = lookupOperation(contract, operation);
    if (definition === undefined) {
      return Promise.resolve(
        fail({ code: 'UNKNOWN_OPERATION', message: `There is no operation named “${String(operation)}”.` }),
      );
    }
    return runOperation(operation, definition, handlers, payload, call, options);
  };

export const createDispatcher = <C extends ContractShape>(
  contract: C,
  handlers: Handlers<C>,
  options: DispatcherOptions,
): Dispatch => {
  const isTrustedSender = createSenderCheck(options.trustedOrigins);

  return async (operation, payload, sender, call = {}) => {
    // Trust boundary: only our own top-level document may call main. An iframe or a page that
    // was navigated elsewhere is refused before anything else happens.
    if (!isTrustedSender(sender)) {
      return fail({ code: 'FORBIDDEN_SENDER', message: 'This caller is not allowed to use the app’s operations.' });
    }

    const definition = lookupOperation(contract, operation);
    if (definition === undefined) {
      return fail({ code: 'UNKNOWN_OPERATION', message: `There is no operation named “${String(operation)}”.` });
    }

    const [area] = splitName(operation);
    const open = options.access ? options.access.isOpen(operation) : area === ALWAYS_OPEN_AREA;
    const gated = open ? undefined : options.lock;
    if (gated?.closed) {
      return fail({
        code: 'LOCKED',
        message: 'The app is locked; nothing was done.',
        advice: 'Unlock the app, then try again.',
      });
    }
    // The operator's role, checked here for every operation: a handler never runs for a role that may not call it.
    const refusal = open ? undefined : options.access?.refuse(operation);
    if (refusal) return fail(refusal);

    return runOperation(operation, definition, handlers, payload, call, {
      ...(options.logError ? { logError: options.logError } : {}),
      ...(gated ? { track: gated.track.bind(gated) } : {}),
    });
  };
};

const splitName = (operation: string): [string, string] => {
  const dot = operation.indexOf('.');
  return [operation.slice(0, dot), operation.slice(dot + 1)];
};
