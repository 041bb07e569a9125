/**
 * The trusted confirmation's view — and the new secret's, and the test key store's key — is declared
 * twice on purpose: the core builds it as `ConfirmView` (core/policies/confirm.ts) and the
 * shell contract validates it (shared/contract/shell.ts). This fails the type check when they stop being the same shape — a
 * field added to one (even an optional one) and not the other, or a type that differs — so a field
 * is never silently dropped on the way to the confirmation window.
 */
import type { z } from 'zod';
import type { SecretView as SecretSchema, shellContract, ConfirmView as ViewSchema } from '../../shared/contract/shell';
import type { StoredKey } from '../keychain/keyStore';
import type { ConfirmAnswer, ConfirmView } from '../policies/confirm';
import type { SecretView } from '../policies/confirmPage';

type Assignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Same fields (optional ones too) and each side assignable to the other. */
type Same<A, B> = Assignable<A, B> extends true ? Assignable<keyof A, keyof B> : false;

type Schema = z.input<typeof ViewSchema>;
type Answer = z.output<(typeof shellContract)['shell']['confirm']['output']>;

export const viewMatches: Same<ConfirmView, Schema> = true;
export const rowMatches: Same<ConfirmView['rows'][number], Schema['rows'][number]> = true;
export const typedAmountMatches: Same<
  NonNullable<ConfirmView['typedAmounts']>[number],
  NonNullable<Schema['typedAmounts']>[number]
> = true;
export const answerMatches: Same<ConfirmAnswer, Answer> = true;
// The page for a new secret and the test key store, likewise.
export const secretViewMatches: Same<SecretView, z.input<typeof SecretSchema>> = true;
export const secretMatches: Same<SecretView['secrets'][number], z.input<typeof SecretSchema>['secrets'][number]> = true;
export const storedKeyMatches: Same<
  StoredKey,
  NonNullable<z.output<(typeof shellContract)['shell']['keyStore']['output']>['value']>
> = true;
