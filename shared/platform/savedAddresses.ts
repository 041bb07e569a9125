/**
 * Which saved addresses the platform accepts for a withdrawal through the API.
 *
 * The platform only sends to an address from the account's address book that is verified there
 * (`verified: "1"`; "0" or "false" is not), or that a completed withdrawal already went to
 * (docs/sandbox.md, withdrawal checks, step 8: else ADDRESS_NOT_USED). The app can only see the
 * last 30 days of withdrawals and its own journal (`previousWithdrawals`), so an address that is
 * neither verified nor used in what the app can see is treated as refused: the form does not let
 * it be reviewed and main refuses it before sending, with the same words.
 *
 * Pure (no Node, no DOM): the renderer and main use the same rule and the same text.
 */

/** What the rule needs of a saved address (the contract's `SavedAddress` has both). */
export interface SavedAddressFacts {
  readonly verified: boolean;
  /** Withdrawals to this destination the app can see (last 30 days, or its own journal). */
  readonly previousWithdrawals: number;
}

/** What to do about it: said at the field and in main's refusal. */
export const VERIFY_ADVICE =
  "Verify it in the platform's address book (web or app); until then the platform refuses withdrawals to it.";

/** Why the platform will not accept a withdrawal to this saved address, or undefined when it will. */
export const savedAddressRefusal = (address: SavedAddressFacts): string | undefined =>
  address.verified || address.previousWithdrawals > 0
    ? undefined
    : `This address is not verified in the platform's address book. ${VERIFY_ADVICE}`;

/** The platform's `verified` field ("1", "0", "true", "false", a number) as a boolean: only "1"/"true" count. */
export const isVerifiedFlag = (value: string | number | boolean | undefined | null): boolean => {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  const text = (value ?? '').trim().toLowerCase();
  return text === '1' || text === 'true';
};
