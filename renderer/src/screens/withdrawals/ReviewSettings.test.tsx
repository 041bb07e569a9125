import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { ReviewSettings } from './ReviewSettings';

afterEach(cleanup);

describe('Typed confirmation amounts: each error at its own field', () => {
  it('“Enter a currency code” is under the currency, never under the amount', async () => {
    installFakeDesk({ 'funding.reviewPolicy': () => ({ typedConfirmAbove: {} }) });
    renderWithQuery(<ReviewSettings />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add currency' }));
    await userEvent.type(screen.getByLabelText('Typed confirmation above'), '1000');
    const currency = screen.getByLabelText('Currency').closest('.field') as HTMLElement;
    const amount = screen.getByLabelText('Typed confirmation above').closest('.field') as HTMLElement;
    expect(currency.textContent).toContain('Enter a currency code');
    expect(amount.textContent).not.toContain('Enter a currency code');
    expect(screen.getAllByText(/Enter a currency code/)).toHaveLength(1);
    expect(screen.getByLabelText('Typed confirmation above').getAttribute('aria-invalid')).toBeNull();
  });
});
