// A minimal signed API v4 client for the spot integration tests and the REST benchmark: signs
// exactly as the spec says (HMAC-SHA512 over method, path, query, body hash, timestamp).

import { createHash, createHmac } from 'node:crypto';

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export type Query = Record<string, string | number | boolean | undefined>;

export class SignedClient {
  private readonly prefix: string;

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly secret: string,
  ) {
    this.prefix = new URL(baseUrl).pathname.replace(/\/$/, '');
  }

  async request<T = unknown>(
    method: string,
    path: string,
    opts: { query?: Query; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiAnswer<T>> {
    const params = Object.entries(opts.query ?? {}).filter(([, v]) => v !== undefined) as [string, string][];
    const query = params.map(([k, v]) => `${k}=${v}`).join('&');
    const encoded = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
    const body = opts.body === undefined ? '' : JSON.stringify(opts.body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const bodyHash = createHash('sha512').update(body).digest('hex');
    const signed = [method, `${this.prefix}${path}`, query, bodyHash, timestamp].join('\n');
    const headers: Record<string, string> = {
      KEY: this.key,
      Timestamp: timestamp,
      SIGN: createHmac('sha512', this.secret).update(signed).digest('hex'),
      Accept: 'application/json',
      ...opts.headers,
    };
    if (body !== '') headers['Content-Type'] = 'application/json';
    const url = `${this.baseUrl}${path}${encoded === '' ? '' : `?${encoded}`}`;
    const res = await fetch(url, { method, headers, body: body === '' ? undefined : body });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T, headers: res.headers };
  }

  get<T = unknown>(path: string, query?: Query) {
    return this.request<T>('GET', path, { query });
  }

  post<T = unknown>(path: string, body: unknown, query?: Query) {
    return this.request<T>('POST', path, { body, query });
  }

  patch<T = unknown>(path: string, body: unknown, query?: Query) {
    return this.request<T>('PATCH', path, { body, query });
  }

  delete<T = unknown>(path: string, query?: Query) {
    return this.request<T>('DELETE', path, { query });
  }
}
