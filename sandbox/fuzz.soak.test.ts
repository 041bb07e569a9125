/** The sandbox's wallet API under malformed requests, full size (what is checked: testing/walletFuzz.ts). */
import { it } from 'vitest';
import { fuzzWalletApi } from './testing/walletFuzz';

it('answers 2,500 malformed requests with spec labels, never a 5xx, and moves no balance', async () => {
  await fuzzWalletApi(2500);
}, 300_000);
