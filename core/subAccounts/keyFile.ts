/**
 * The encrypted file new API-key secrets are written to when the operator does not want them on
 * screen: AES-256-GCM, the key derived with scrypt (N = 2^15, r = 8, p = 1) from a passphrase the
 * operator types, a fresh 16-byte salt and 12-byte IV per file. The file is JSON (readable by any
 * tool that knows the format, docs/bulk.md); the passphrase never leaves this function.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

export interface KeyFileEntry {
  readonly userId: number;
  readonly key: string;
  readonly secret: string;
  readonly replaces: string;
  readonly ipWhitelist: readonly string[];
  readonly createdAt: string;
}

export interface KeyFile {
  readonly format: 'treasury-desk-keys';
  readonly version: 1;
  readonly kdf: {
    readonly name: 'scrypt';
    readonly N: number;
    readonly r: number;
    readonly p: number;
    readonly salt: string;
  };
  readonly cipher: { readonly name: 'aes-256-gcm'; readonly iv: string; readonly tag: string };
  readonly data: string;
}

const derive = (passphrase: string, salt: Buffer): Buffer => scryptSync(passphrase.normalize('NFC'), salt, 32, SCRYPT);

export const encryptKeyFile = (entries: readonly KeyFileEntry[], passphrase: string): KeyFile => {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(passphrase, salt), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify({ keys: entries }), 'utf8'), cipher.final()]);
  return {
    format: 'treasury-desk-keys',
    version: 1,
    kdf: { name: 'scrypt', N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, salt: salt.toString('base64') },
    cipher: { name: 'aes-256-gcm', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64') },
    data: data.toString('base64'),
  };
};

/** Throws when the passphrase is wrong or the file was changed (GCM's tag). */
export const decryptKeyFile = (file: KeyFile, passphrase: string): KeyFileEntry[] => {
  const key = scryptSync(passphrase.normalize('NFC'), Buffer.from(file.kdf.salt, 'base64'), 32, {
    N: file.kdf.N,
    r: file.kdf.r,
    p: file.kdf.p,
    maxmem: SCRYPT.maxmem,
  });
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(file.cipher.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(file.cipher.tag, 'base64'));
  const text = Buffer.concat([decipher.update(Buffer.from(file.data, 'base64')), decipher.final()]).toString('utf8');
  return (JSON.parse(text) as { keys: KeyFileEntry[] }).keys;
};
