import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { type FieldErrors, type Resolver, type ResolverResult, useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorNotice } from '../ui';
import { DeskCallError } from './desk';
import { FormRefusal, placeRefusal, useRulesAtFields } from './formErrors';

afterEach(cleanup);

type Values = { currency: string; amount: string; ipWhitelist: string[]; perms: Record<string, string> };
const FIELDS = { currency: 'Currency', amount: 'Amount', ipWhitelist: 'IP whitelist', perms: 'Permissions' } as const;

describe('placeRefusal: one helper maps a refusal onto a form', () => {
  it('puts main’s field messages at their fields (rows keep their row) and leaves no banner', () => {
    const setError = vi.fn();
    const error = new DeskCallError('x.y', {
      code: 'INVALID_INPUT',
      message: 'not valid',
      fields: { currency: 'Enter a currency code', 'ipWhitelist.2': 'Bad row', 'perms.wallet': 'Bad access' },
    });
    expect(placeRefusal<Values>(error, setError, FIELDS)).toBeUndefined();
    expect(setError.mock.calls.map(([name, e]) => [name, e.message])).toEqual([
      ['currency', 'Enter a currency code'],
      ['ipWhitelist.2', 'Bad row'],
      ['perms', 'Bad access'],
    ]);
    // The currency's message never lands on the amount.
    expect(setError.mock.calls.some(([name]) => name === 'amount')).toBe(false);
  });

  it('leaves only what names no field for the banner', () => {
    const setError = vi.fn();
    const error = new DeskCallError('x.y', {
      code: 'INVALID_INPUT',
      message: 'not valid',
      fields: { amount: 'Too small', requestKey: 'Not a UUID' },
    });
    const banner = placeRefusal<Values>(error, setError, FIELDS);
    expect(banner).toBeInstanceOf(FormRefusal);
    expect((banner as FormRefusal).fields).toEqual({ requestKey: 'Not a UUID' });
    render(<ErrorNotice error={banner} />);
    const notice = screen.getByTestId('error-notice').textContent ?? '';
    expect(notice).not.toContain('Too small');
    expect(notice).toContain('Not a UUID');
  });

  it('a platform label about one field: one banner naming it, the field highlighted without a second message', () => {
    const setError = vi.fn();
    const error = new DeskCallError('x.y', {
      code: 'PLATFORM',
      message: 'Not enough balance.',
      label: 'BALANCE_NOT_ENOUGH',
      advice: 'Check the values you entered and try again.',
    });
    const banner = placeRefusal<Values>(error, setError, FIELDS, { BALANCE_NOT_ENOUGH: 'amount' });
    expect(setError).toHaveBeenCalledWith('amount', { type: 'platform', message: '' }, { shouldFocus: true });
    render(<ErrorNotice error={banner} />);
    expect(screen.getByTestId('error-highlighted').textContent).toBe('Highlighted: Amount.');
    expect(screen.getByText('Check the values you entered and try again.')).toBeTruthy();
    expect(screen.getByTestId('error-label').textContent).toBe('BALANCE_NOT_ENOUGH');
  });

  it('anything else is the banner as main said it', () => {
    const setError = vi.fn();
    const error = new DeskCallError('x.y', { code: 'NETWORK', message: 'No answer' });
    expect(placeRefusal<Values>(error, setError, FIELDS, { BALANCE_NOT_ENOUGH: 'amount' })).toBe(error);
    expect(setError).not.toHaveBeenCalled();
  });
});

describe('ErrorNotice: main’s words as main said them', () => {
  it('shows main’s message and advice unchanged when nothing is highlighted', () => {
    const error = new DeskCallError('x.y', {
      code: 'PLATFORM',
      message: 'A value in the request was not accepted by the platform.',
      label: 'INVALID_PARAM_VALUE',
      advice: 'Check the values you entered and try again.',
    });
    render(<ErrorNotice error={error} />);
    expect(screen.queryByText(/highlighted/i)).toBeNull();
    expect(screen.getByText('A value in the request was not accepted by the platform.')).toBeTruthy();
    expect(screen.getByText('Check the values you entered and try again.')).toBeTruthy();
  });

  it('never rewrites main’s advice', () => {
    const error = new DeskCallError('x.y', {
      code: 'PLATFORM',
      message: 'Refused.',
      advice: 'Check the highlighted values and try again.',
    });
    render(<ErrorNotice error={error} />);
    expect(screen.getByText('Check the highlighted values and try again.')).toBeTruthy();
  });
});

describe('useRulesAtFields: the latest check decides what a field shows', () => {
  type Draft = { amount: string };
  const REQUIRED: FieldErrors<Draft> = { amount: { type: 'custom', message: 'Enter an amount.' } };

  /** A resolver that answers when the test says (each call waits for its own answer). */
  const answeredByHand = () => {
    const answers: ((errors: FieldErrors<Draft>) => void)[] = [];
    const resolver: Resolver<Draft> = () =>
      new Promise<ResolverResult<Draft>>((resolve) => {
        answers.push((errors) => resolve({ values: {}, errors }));
      });
    return { answers, resolver };
  };

  const renderRules = (resolver: Resolver<Draft>) =>
    renderHook(
      ({ amount, shown }: { amount: string; shown: boolean }) => {
        const form = useForm<Draft>({ defaultValues: { amount } });
        useRulesAtFields(form, resolver, ['amount'], () => shown, [amount, shown]);
        return form;
      },
      { initialProps: { amount: '', shown: true } },
    );

  it('an answer that comes after the form was reset does not put "required" back', async () => {
    const { answers, resolver } = answeredByHand();
    const { result, rerender } = renderRules(resolver);
    // A transfer is done: the amount is cleared and "required" waits for the next attempt.
    rerender({ amount: '', shown: false });
    // The check from before the reset answers only now.
    await act(async () => answers[0]?.(REQUIRED));
    expect(result.current.getFieldState('amount').error).toBeUndefined();
  });

  it('an older answer arriving last does not replace the newer one', async () => {
    const { answers, resolver } = answeredByHand();
    const { result, rerender } = renderRules(resolver);
    rerender({ amount: '5', shown: true });
    await act(async () => answers[1]?.({}));
    await act(async () => answers[0]?.(REQUIRED));
    expect(result.current.getFieldState('amount').error).toBeUndefined();
    // The newest check's own answer is applied.
    rerender({ amount: '', shown: true });
    await act(async () => answers[2]?.(REQUIRED));
    expect(result.current.getFieldState('amount').error?.message).toBe('Enter an amount.');
  });
});
