/**
 * The trusted confirmation's view is declared twice on purpose: the core builds it as
 * `ConfirmView` (electron/core/policies/confirm.ts) and the shell contract validates it
 * (shared/contract/shell.ts). This fails the type check when they stop being the same shape — a
 * field added to one (even an optional one) and not the other, or a type that differs — so a field
 * is never silently dropped on the way to the confirmation window.
 */
import type { z } from 'zod';
import type { shellContract, ConfirmView as ViewSchema } from '../../../shared/contract/shell';
import type { ConfirmAnswer, ConfirmView } from '../policies/confirm';

type Assignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Same fields (optional ones too) and each side assignable to the other. */
type Same<A, B> = Assignable<A, B> extends true ? Assignable<keyof A, keyof B> : false;

type Schema = z.input<typeof ViewSchema>;
type Answer = z.output<(typeof shellContract)['shell']['confirm']['output']>;

export const viewMatches: Same<ConfirmView, Schema> = true;
export const rowMatches: Same<ConfirmView['rows'][number], Schema['rows'][number]> = true;
export const typedAmountMatches: Same<
  NonNullable<ConfirmView['typedAmount']>,
  NonNullable<Schema['typedAmount']>
> = true;
export const answerMatches: Same<ConfirmAnswer, Answer> = true;
