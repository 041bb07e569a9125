import { randomBytes } from 'node:crypto';

/** Our client ids: "td" + 24 random base-62-ish chars (fits withdraw_order_id's 32 and client_order_id's 64). */
export const newClientId = (): string => {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(24);
  let id = 'td';
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return id;
};
