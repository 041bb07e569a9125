// The test WebSocket client (part of the one test harness, ./harness.ts): collects every message
// and waits for the ones a test expects.

import WebSocket from 'ws';
import { signChannel } from '../http/signature';

export interface StreamReply {
  time: number;
  time_ms: number;
  id?: number | string;
  channel: string;
  event: string;
  result?: unknown;
  error?: { code: number; message: string };
}

export class TestStream {
  readonly messages: StreamReply[] = [];
  private waiters: { match: (m: StreamReply) => boolean; resolve: (m: StreamReply) => void }[] = [];
  private nextId = 1;
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as StreamReply;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
    ws.on('error', () => {});
  }

  static open(url: string): Promise<TestStream> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      const stream = new TestStream(ws);
      ws.once('open', () => resolve(stream));
      ws.once('error', reject);
    });
  }

  send(body: unknown): void {
    this.ws.send(typeof body === 'string' ? body : JSON.stringify(body));
  }

  /** Sends a (signed when credentials are given) request; resolves with its answer. */
  request(
    channel: string,
    event: 'subscribe' | 'unsubscribe',
    payload: unknown,
    credentials?: { key: string; secret: string },
  ): Promise<StreamReply> {
    const id = this.nextId++;
    const time = Math.floor(Date.now() / 1000);
    const auth = credentials
      ? { method: 'api_key', KEY: credentials.key, SIGN: signChannel(credentials.secret, channel, event, time) }
      : undefined;
    const answer = this.next((m) => m.id === id);
    this.send({ time, id, channel, event, payload, ...(auth ? { auth } : {}) });
    return answer;
  }

  /** The first message (already received or coming) that matches. */
  next(match: (m: StreamReply) => boolean, timeoutMs = 5_000): Promise<StreamReply> {
    const seen = this.messages.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching stream message in time')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** Like next, but only among messages received from now on. */
  upcoming(match: (m: StreamReply) => boolean, timeoutMs = 5_000): Promise<StreamReply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching stream message in time')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  whenClosed(timeoutMs = 5_000): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the socket did not close')), timeoutMs);
      this.ws.once('close', (code, reason) => {
        clearTimeout(timer);
        resolve({ code, reason: reason.toString() });
      });
    });
  }

  close(): void {
    this.ws.terminate();
  }
}
