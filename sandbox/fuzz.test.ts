/** The sandbox's wallet API under malformed requests, small (what is checked: testing/walletFuzz.ts). */
import { it } from 'vitest';
import { fuzzWalletApi } from './testing/walletFuzz';

it('answers 600 malformed requests with spec labels, never a 5xx, and moves no balance', async () => {
  await fuzzWalletApi(600);
}, 60_000);
