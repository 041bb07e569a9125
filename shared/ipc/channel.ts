/**
 * One request/response channel over anything that passes messages — a process's IPC port, an
 * Electron MessagePort, an in-memory pair in tests — modelled on VS Code's ChannelServer and
 * ChannelClient (src/vs/base/parts/ipc/common/ipc.ts): every call has an id, can be cancelled and
 * has its own timeout; events go the other way in batches. One end can be client and server at
 * once: the core serves the window's operations on the same port it calls the shell's on.
 *
 * Answers are always the server's `Result` (errors are data) or, when nothing can answer any more,
 * a failure the client makes: the timeout's or the closed port's. Cancelling a call asks the
 * server's handler to stop (its signal aborts) and still waits for its answer: a handler that is
 * moving money finishes and says what happened; only the timeout stops waiting without it.
 *
 * Plain, structured-cloneable data only; no Node, no DOM: timers are passed in.
 */
import { fail, type IpcError, type Result } from './result';

export type EventEntry = readonly [name: string, payload: unknown];

export type ChannelMessage =
  /** `text`: answer with the Result as JSON text (a relay hands it on without parsing it). */
  | {
      readonly k: 'call';
      readonly id: number;
      readonly op: string;
      readonly input: unknown;
      readonly meta?: unknown;
      readonly text?: true;
    }
  | { readonly k: 'cancel'; readonly id: number }
  | { readonly k: 'result'; readonly id: number; readonly result: Result<unknown> }
  | { readonly k: 'text'; readonly id: number; readonly text: string }
  /** Events emitted within one turn of the sender's event loop, in order. */
  | { readonly k: 'events'; readonly events: readonly EventEntry[] };

/** What a handler is told about a cancellation (an AbortSignal fits it). */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Time as a dependency: the channel starts no timer of its own. */
export interface ChannelTimers {
  /** Milliseconds on a clock that only moves forward. */
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Runs `run` once the current turn of the event loop is over (Node: setImmediate). */
  defer(run: () => void): void;
  /** A new cancellation (an AbortController fits it). */
  cancellation(): { readonly signal: CancelSignal; abort(): void };
}

const MAX_EVENTS_PER_MESSAGE = 500;

/**
 * The sending side of a port. Events are queued and leave together: once the current turn is over,
 * or — in a burst, when the last batch left less than `burstWindowMs` ago — when that window ends,
 * so a history sync's progress or a stream's rush becomes a message every few milliseconds instead
 * of one per event, while a lone event waits for nothing. Anything else sent flushes them first, so
 * an answer never overtakes the events its handler emitted before answering.
 */
export class ChannelPort {
  private queued: EventEntry[] = [];
  private flushScheduled = false;
  private lastBatchAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: (message: ChannelMessage) => void,
    private readonly timers: ChannelTimers,
    private readonly burstWindowMs = 0,
  ) {}

  post(message: ChannelMessage): void {
    this.flush();
    this.send(message);
  }

  emit(name: string, payload: unknown): void {
    this.queued.push([name, payload]);
    if (this.queued.length >= MAX_EVENTS_PER_MESSAGE) {
      this.flush();
      return;
    }
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const flush = () => {
      this.flushScheduled = false;
      this.flush();
    };
    const wait = this.lastBatchAt + this.burstWindowMs - this.timers.now();
    if (wait > 0) this.timers.setTimeout(flush, wait);
    else this.timers.defer(flush);
  }

  flush(): void {
    if (this.queued.length === 0) return;
    const events = this.queued;
    this.queued = [];
    this.lastBatchAt = this.timers.now();
    this.send({ k: 'events', events });
  }
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

/** Whether a received value is a channel message (anything else on the port is someone else's). */
export const isChannelMessage = (value: unknown): value is ChannelMessage => {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.k) {
    case 'call':
      return isId(m.id) && typeof m.op === 'string';
    case 'cancel':
      return isId(m.id);
    case 'result':
      return isId(m.id) && typeof m.result === 'object' && m.result !== null;
    case 'text':
      return isId(m.id) && typeof m.text === 'string';
    case 'events':
      return Array.isArray(m.events);
    default:
      return false;
  }
};

export interface CallOptions {
  /** Aborting it asks the server's handler to stop; the call still ends with the server's answer. */
  readonly signal?: CancelSignal;
  /** How long to wait for the answer before giving up on it (default: the client's). */
  readonly timeoutMs?: number;
  /** Facts about the caller for the server (e.g. the window's frame); never checked here. */
  readonly meta?: unknown;
}

export interface ChannelClientOptions {
  readonly timers: ChannelTimers;
  readonly defaultTimeoutMs: number;
  /** The failure a call that got no answer in time ends with. */
  readonly timedOut: (operation: string, ms: number) => IpcError;
}

interface Waiting {
  readonly operation: string;
  readonly text: boolean;
  readonly settle: (answer: Result<unknown> | string) => void;
}

const asText = (answer: Result<unknown> | string): string =>
  typeof answer === 'string' ? answer : JSON.stringify(answer);
const asResult = (answer: Result<unknown> | string): Result<unknown> =>
  typeof answer === 'string' ? (JSON.parse(answer) as Result<unknown>) : answer;

export class ChannelClient {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private closedWith: IpcError | undefined;

  constructor(
    private readonly port: ChannelPort,
    private readonly options: ChannelClientOptions,
  ) {}

  /** Calls `operation` on the other end; resolves with its Result, never rejects. */
  call(operation: string, input: unknown, options: CallOptions = {}): Promise<Result<unknown>> {
    return this.start(operation, input, options, false).then(asResult);
  }

  /** The same call, answered as the Result's JSON text (for a relay that hands it on as text). */
  callText(operation: string, input: unknown, options: CallOptions = {}): Promise<string> {
    return this.start(operation, input, options, true).then(asText);
  }

  /** Calls in flight. */
  get pending(): number {
    return this.waiting.size;
  }

  /** An answer from the other end; false when the message is not one. */
  receive(message: ChannelMessage): boolean {
    if (message.k !== 'result' && message.k !== 'text') return false;
    const waiter = this.waiting.get(message.id);
    if (waiter === undefined) return true; // timed out or closed already: the late answer is dropped
    waiter.settle(message.k === 'text' ? message.text : message.result);
    return true;
  }

  /** The other end is gone: every call in flight, and every later one, ends with `failure`. */
  close(failure: IpcError): void {
    this.closedWith = failure;
    for (const waiter of [...this.waiting.values()]) waiter.settle(fail(failure));
  }

  private start(operation: string, input: unknown, options: CallOptions, text: boolean) {
    if (this.closedWith !== undefined) return Promise.resolve<Result<unknown> | string>(fail(this.closedWith));
    const id = this.nextId++;
    const { timers } = this.options;
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs;
    return new Promise<Result<unknown> | string>((resolve) => {
      const onAbort = () => this.port.post({ k: 'cancel', id });
      const timer = timers.setTimeout(() => {
        // The handler may still be running: ask it to stop, stop waiting for it.
        if (this.waiting.has(id)) this.port.post({ k: 'cancel', id });
        this.waiting.get(id)?.settle(fail(this.options.timedOut(operation, timeoutMs)));
      }, timeoutMs);
      this.waiting.set(id, {
        operation,
        text,
        settle: (answer) => {
          this.waiting.delete(id);
          timers.clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.port.post({
        k: 'call',
        id,
        op: operation,
        input,
        ...(options.meta === undefined ? {} : { meta: options.meta }),
        ...(text ? { text: true as const } : {}),
      });
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** What a server does with one call: answer with a Result (errors are data), never throw. */
export type Serve = (
  operation: string,
  input: unknown,
  context: { readonly signal: CancelSignal; readonly meta: unknown },
) => Promise<Result<unknown>>;

export class ChannelServer {
  private readonly running = new Map<number, { abort(): void }>();
  private closed = false;

  constructor(
    private readonly port: ChannelPort,
    private readonly serve: Serve,
    private readonly timers: ChannelTimers,
  ) {}

  /** A call or a cancellation from the other end; false when the message is not one. */
  receive(message: ChannelMessage): boolean {
    if (message.k === 'cancel') {
      this.running.get(message.id)?.abort();
      return true;
    }
    if (message.k !== 'call') return false;
    if (this.closed || this.running.has(message.id)) return true;
    const cancellation = this.timers.cancellation();
    this.running.set(message.id, cancellation);
    const answer = (result: Result<unknown>) => {
      this.running.delete(message.id);
      if (this.closed) return;
      this.port.post(
        message.text
          ? { k: 'text', id: message.id, text: JSON.stringify(result) }
          : { k: 'result', id: message.id, result },
      );
    };
    this.serve(message.op, message.input, { signal: cancellation.signal, meta: message.meta }).then(answer, () =>
      answer(fail({ code: 'INTERNAL', message: 'Something went wrong inside the app; see the log.' })),
    );
    return true;
  }

  /** Calls being served. */
  get pending(): number {
    return this.running.size;
  }

  /** Stops answering; the handlers still running are asked to stop. */
  close(): void {
    this.closed = true;
    for (const cancellation of this.running.values()) cancellation.abort();
    this.running.clear();
  }
}
