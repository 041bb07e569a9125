import fs from 'node:fs';
import http from 'node:http';
import { bodyHash, sign } from '../http/signature';

const ready = JSON.parse(fs.readFileSync('/tmp/prof-ready.json', 'utf8'));
const port = Number(new URL(ready.base_url).port);
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
const kind = process.argv[2];
const body =
  kind === 'post'
    ? JSON.stringify({ currency: 'USDT', from: 'spot', to: 'futures', amount: '0.0001', settle: 'usdt' })
    : '';
const path = kind?.startsWith('post') ? '/api/v4/wallet/transfers' : '/api/v4/wallet/fee';
const method = kind?.startsWith('post') ? 'POST' : 'GET';
const hash = bodyHash(body);
let n = 0;
const end = Date.now() + 5000;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (Date.now() < end)
      await new Promise<void>((r) => {
        const ts = String(Math.floor(Date.now() / 1000));
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            agent,
            method,
            path,
            headers: {
              KEY: ready.key,
              Timestamp: ts,
              SIGN: sign(ready.secret, method, path, '', hash, ts),
              ...(body ? { 'Content-Type': 'application/json' } : {}),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              n++;
              r();
            });
          },
        );
        req.end(body || undefined);
      });
  }),
);
console.log(kind, 'rps', n / 5);
process.exit(0);
