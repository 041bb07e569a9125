/**
 * Operators' identities in a team: an Ed25519 key pair made on the operator's own desk. The public key
 * is enrolled in the team's control chain (controlChain.ts); the private key never leaves the desk: it
 * is kept in that desk's OS keychain, sealed (AES-256-GCM) under a key derived from the operator's
 * passphrase (scrypt, the same derivation as the local passphrase hash), and unlocked at sign-in. A
 * database user can read and rewrite rows, but cannot make a signature that verifies.
 */
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import type { KeyStore } from '../keychain/keyStore';
import { DEFAULT_SCRYPT_COST, derivePassphraseKey, type ScryptCost } from '../operators/passphrase';
import { canonicalJson, sha256 } from './canonical';
import { teamRefused } from './errors';

/** Signatures are over this prefix and the canonical record: a team signature means nothing elsewhere. */
const SIGNING_CONTEXT = 'Treasury Desk team record v1\n';

/** A record and its operator's signature, as stored in the team database. */
export interface SignedRecord {
  /** The canonical JSON text that was signed (stored as is; parsed again by whoever verifies). */
  readonly body: string;
  /** The signer's operator id. */
  readonly signer: string;
  /** Ed25519 signature of SIGNING_CONTEXT + body, base64url. */
  readonly signature: string;
}

/** What an unlocked operator can do: sign records as themselves. */
export interface OperatorSigner {
  readonly operatorId: string;
  /** The raw public key, base64url (as enrolled). */
  readonly publicKey: string;
  /** Canonicalises and signs a record (throws on a value that has no single text, e.g. a float). */
  sign(record: object): SignedRecord;
}

const signingInput = (body: string): Buffer => Buffer.from(SIGNING_CONTEXT + body, 'utf8');

const publicKeyObject = (publicKey: string): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });

/** Whether `signature` is `publicKey`'s signature of `body` (false for anything malformed). */
export const verifySignature = (publicKey: string, body: string, signature: string): boolean => {
  try {
    return verify(null, signingInput(body), publicKeyObject(publicKey), Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
};

/** A short, readable name of a public key, for screens and for comparing out of band. */
export const keyFingerprint = (publicKey: string): string => sha256(publicKey).slice(0, 20).match(/.{4}/g)!.join(' ');

const signerOf = (operatorId: string, privateKey: KeyObject, publicKey: string): OperatorSigner => ({
  operatorId,
  publicKey,
  sign(record) {
    const body = canonicalJson(record);
    return { body, signer: operatorId, signature: sign(null, signingInput(body), privateKey).toString('base64url') };
  },
});

/** The sealed private key as kept in the keychain entry's secret (JSON). */
interface SealedKey {
  readonly v: 1;
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: string;
  readonly iv: string;
  readonly tag: string;
  readonly key: string;
}

/** The keychain entry of an operator's signing key on this desk. */
export const operatorKeyEntry = (teamId: string, operatorId: string): string => `team-operator:${teamId}:${operatorId}`;

/** The sealed key is bound to its operator and public key: a sealed key moved to another entry does not open. */
const associatedData = (operatorId: string, publicKey: string) => Buffer.from(`${operatorId}\n${publicKey}`, 'utf8');

/**
 * Makes an operator's key pair on this desk and keeps the private key in the keychain, sealed under
 * the passphrase. Returns the signer (already unlocked: the operator just typed the passphrase) whose
 * public key goes into the enrolment control change.
 */
export const createOperatorKey = async (
  keyStore: KeyStore,
  teamId: string,
  operatorId: string,
  passphrase: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<OperatorSigner> => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicRaw = publicKey.export({ format: 'jwk' }).x as string;
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const sealingKey = await derivePassphraseKey(passphrase, salt, cost);
  const cipher = createCipheriv('aes-256-gcm', sealingKey, iv);
  cipher.setAAD(associatedData(operatorId, publicRaw));
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const sealed: SealedKey = {
    v: 1,
    ...cost,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    key: Buffer.concat([cipher.update(der), cipher.final()]).toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
  await keyStore.set(operatorKeyEntry(teamId, operatorId), { key: publicRaw, secret: JSON.stringify(sealed) });
  return signerOf(operatorId, privateKey, publicRaw);
};

/**
 * Unlocks an operator's signing key with their passphrase (at sign-in). Refuses, changing nothing,
 * when this desk holds no key for them or the passphrase does not open it.
 */
export const unlockOperatorKey = async (
  keyStore: KeyStore,
  teamId: string,
  operatorId: string,
  passphrase: string,
): Promise<OperatorSigner> => {
  const stored = await keyStore.get(operatorKeyEntry(teamId, operatorId));
  if (stored === undefined)
    throw teamRefused(
      'This desk holds no team signing key for this operator.',
      'Sign in on the desk where the operator was enrolled, or enrol this desk for them.',
    );
  let sealed: SealedKey;
  try {
    sealed = JSON.parse(stored.secret) as SealedKey;
    if (sealed.v !== 1) throw new Error('unknown version');
  } catch {
    throw teamRefused(
      "The operator's signing key in the keychain is not in this app's format.",
      'Enrol the operator again.',
    );
  }
  const sealingKey = await derivePassphraseKey(passphrase, Buffer.from(sealed.salt, 'base64'), sealed);
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(associatedData(operatorId, stored.key));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const der = Buffer.concat([decipher.update(Buffer.from(sealed.key, 'base64')), decipher.final()]);
    return signerOf(operatorId, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }), stored.key);
  } catch {
    throw teamRefused(
      "That passphrase does not unlock this operator's signing key.",
      'Check the passphrase and try again.',
    );
  }
};
