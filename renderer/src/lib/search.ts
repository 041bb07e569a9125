/**
 * Whether a record matches the search text: any of its ids (record id, txid, client id), its
 * address or memo contains it, ignoring case and spaces (a pasted, grouped address still matches).
 */
export const matchesSearch = (search: string, fields: readonly (string | undefined)[]): boolean => {
  const text = search.replace(/\s+/g, '').toLowerCase();
  if (text === '') return true;
  return fields.some((f) => f?.replace(/\s+/g, '').toLowerCase().includes(text));
};
