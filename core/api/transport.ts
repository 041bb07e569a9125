/**
 * HTTP over keep-alive connections, with undici (Node's own HTTP client; it spends about a third
 * less CPU per request than node:http — bench/client-pipeline.ts). Reports failures precisely enough
 * to decide whether a request may have reached the server: a failed connect is "unreachable"
 * (certain it was not sent), anything after is "interrupted" (outcome unknown). undici never
 * resends a request by itself (no retry dispatcher here), so a write leaves at most once.
 */
import { Agent, errors, request as undiciRequest } from 'undici';

export interface TransportRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** No connection within this time → unreachable; no complete answer within it → interrupted. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface TransportResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: ResponseHeaders;
  readonly body: string;
}

export class TransportError extends Error {
  constructor(
    readonly phase: 'connect' | 'exchange' | 'aborted',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
  }
}

/** Errors that can only happen before a single byte of the request left this computer. */
const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Where a failed request stands: certainly not sent ("connect") or unknown ("exchange"). A request
 * cancelled in flight counts as unknown: it may already be on the wire.
 */
const phaseOf = (error: unknown): TransportError['phase'] => {
  const code = codeOf(error) ?? codeOf((error as { cause?: unknown } | undefined)?.cause);
  return code !== undefined && CONNECT_ERRORS.has(code) ? 'connect' : 'exchange';
};

const describe = (error: unknown, timeoutMs: number): string => {
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError)
    return `no answer within ${timeoutMs} ms`;
  if (error instanceof errors.ConnectTimeoutError) return `no connection within ${timeoutMs} ms`;
  return codeOf(error) ?? (error as Error).message;
};

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  close(): void;
}

export const createTransport = (options: { maxSockets?: number; connectTimeoutMs?: number } = {}): Transport => {
  // Keep-alive saves a TCP (and TLS) handshake per request; undici drops idle sockets before the
  // server's own keep-alive timeout (it reads the server's Keep-Alive hint), so a reused socket is
  // rarely closed under a request.
  const agent = new Agent({
    connections: options.maxSockets ?? 16,
    pipelining: 1,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
  });
  let closed = false;

  const send = async (request: TransportRequest): Promise<TransportResponse> => {
    if (closed) throw new TransportError('connect', 'the client is closed');
    if (request.signal?.aborted) throw new TransportError('aborted', 'cancelled');
    try {
      const response = await undiciRequest(request.url, {
        dispatcher: agent,
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return {
        status: response.statusCode,
        headers: response.headers,
        body: await response.body.text(),
      };
    } catch (error) {
      throw new TransportError(phaseOf(error), describe(error, request.timeoutMs), { cause: error });
    }
  };

  return {
    send,
    close: () => {
      closed = true;
      void agent.destroy().catch(() => {});
    },
  };
};
