import { describe, expect, it } from 'vitest';
import { MemoryKeyStore } from '../keychain/keyStore';
import { TEST_SCRYPT_COST } from '../operators/passphrase';
import { canonicalJson } from './canonical';
import { createOperatorKey, operatorKeyEntry, unlockOperatorKey, verifySignature } from './identity';

describe('canonical serialisation', () => {
  it('writes one text for one meaning: keys in a stable order at every depth, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe('{"a":{"c":"x","d":[true,null]},"b":1}');
    expect(canonicalJson({ a: { c: 'x', d: [true, null] }, b: 1 })).toBe(
      canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } }),
    );
    expect(canonicalJson({ n: -0 })).toBe('{"n":0}');
  });

  it('refuses what has no single text, naming the field: floats (amounts are decimal strings), undefined, NaN', () => {
    expect(() => canonicalJson({ amount: 0.1 })).toThrow(/amount: only safe integers .* decimal strings/);
    expect(() => canonicalJson({ params: { fee: 1e21 } })).toThrow(/params\.fee/);
    expect(() => canonicalJson({ list: [1, Number.NaN] })).toThrow(/list\[1\]/);
    expect(() => canonicalJson({ memo: undefined })).toThrow(/memo: undefined/);
    expect(() => canonicalJson({ at: new Date(0) })).toThrow(/at: a object cannot be signed/);
  });
});

describe('operator signing keys', () => {
  const team = 'team-1';

  it('makes a key pair on this desk, keeps only the sealed private key in the keychain, unlocks it with the passphrase', async () => {
    const keyStore = new MemoryKeyStore();
    const made = await createOperatorKey(keyStore, team, 'carol', 'carol passphrase', TEST_SCRYPT_COST);
    const stored = await keyStore.get(operatorKeyEntry(team, 'carol'));
    expect(stored?.key).toBe(made.publicKey);
    // The keychain holds ciphertext: neither the passphrase nor a PEM/DER private key in clear.
    expect(stored?.secret).not.toContain('carol passphrase');
    expect(stored?.secret).not.toContain('PRIVATE KEY');

    const unlocked = await unlockOperatorKey(keyStore, team, 'carol', 'carol passphrase');
    const signed = unlocked.sign({ type: 'test', amount: '60' });
    expect(signed.signer).toBe('carol');
    expect(verifySignature(made.publicKey, signed.body, signed.signature)).toBe(true);
  });

  it('refuses a wrong passphrase and a sealed key moved to another operator, changing nothing', async () => {
    const keyStore = new MemoryKeyStore();
    await createOperatorKey(keyStore, team, 'carol', 'carol passphrase', TEST_SCRYPT_COST);
    await expect(unlockOperatorKey(keyStore, team, 'carol', 'not it')).rejects.toThrow(/does not unlock/);
    await expect(unlockOperatorKey(keyStore, team, 'dave', 'carol passphrase')).rejects.toThrow(
      /holds no team signing key/,
    );
    // Someone with keychain access copies carol's sealed key under dave's name: it does not open as dave.
    await keyStore.set(operatorKeyEntry(team, 'dave'), (await keyStore.get(operatorKeyEntry(team, 'carol')))!);
    await expect(unlockOperatorKey(keyStore, team, 'dave', 'carol passphrase')).rejects.toThrow(/does not unlock/);
    await expect(unlockOperatorKey(keyStore, team, 'carol', 'carol passphrase')).resolves.toBeDefined();
  });

  it('a signature verifies only for its exact body and key', async () => {
    const keyStore = new MemoryKeyStore();
    const carol = await createOperatorKey(keyStore, team, 'carol', 'pass', TEST_SCRYPT_COST);
    const dave = await createOperatorKey(keyStore, team, 'dave', 'pass', TEST_SCRYPT_COST);
    const signed = carol.sign({ amount: '60', currency: 'USDT' });
    expect(verifySignature(carol.publicKey, signed.body, signed.signature)).toBe(true);
    expect(verifySignature(carol.publicKey, signed.body.replace('60', '600'), signed.signature)).toBe(false);
    expect(verifySignature(dave.publicKey, signed.body, signed.signature)).toBe(false);
    expect(verifySignature(carol.publicKey, signed.body, 'not a signature')).toBe(false);
  });
});
