/**
 * HTTP over keep-alive connections (node:http / node:https). Reports failures precisely enough to
 * decide whether a request may have reached the server: a failed connect is "unreachable" (certain
 * it was not sent), anything after is "interrupted" (outcome unknown).
 */
import http from 'node:http';
import https from 'node:https';

export interface TransportRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface TransportResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
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

const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  close(): void;
}

export const createTransport = (options: { maxSockets?: number } = {}): Transport => {
  // Keep-alive saves a TCP (and TLS) handshake per request; idle sockets are dropped before the
  // server's own keep-alive timeout so a reused socket is rarely closed under a request.
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 16, timeout: 30_000 };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  let closed = false;

  const send = (request: TransportRequest): Promise<TransportResponse> =>
    new Promise((resolve, reject) => {
      if (closed) {
        reject(new TransportError('connect', 'the client is closed'));
        return;
      }
      if (request.signal?.aborted) {
        reject(new TransportError('aborted', 'cancelled'));
        return;
      }
      const isHttps = request.url.protocol === 'https:';
      const lib = isHttps ? https : http;
      let connected = false;
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const headers: Record<string, string> = { ...request.headers };
      if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
      const req = lib.request(request.url, {
        method: request.method,
        headers,
        agent: isHttps ? httpsAgent : httpAgent,
      });
      const fail = (error: Error & { code?: string }) =>
        finish(() => {
          const isConnectFailure = !connected && error.code !== undefined && CONNECT_ERRORS.has(error.code);
          reject(
            new TransportError(isConnectFailure ? 'connect' : 'exchange', error.code ?? error.message, {
              cause: error,
            }),
          );
        });
      const timer = setTimeout(() => {
        finish(() =>
          reject(new TransportError(connected ? 'exchange' : 'connect', `no answer within ${request.timeoutMs} ms`)),
        );
        req.destroy();
      }, request.timeoutMs);
      const onAbort = () => {
        finish(() => reject(new TransportError(connected ? 'exchange' : 'aborted', 'cancelled')));
        req.destroy();
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('connection cut mid-answer'), { code: 'ECONNRESET' })));
        res.on('end', () =>
          finish(() =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          ),
        );
      });
      req.end(request.body);
    });

  return {
    send,
    close: () => {
      closed = true;
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
};
