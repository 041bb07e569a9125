import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { matchesSearch } from '../lib/search';
import { compareSortValues, DataTable } from './Table';

afterEach(cleanup);

const rows = [
  { id: 'a', name: 'beta', amount: '9.5' },
  { id: 'b', name: 'alpha', amount: '10' },
  { id: 'c', name: 'gamma', amount: '0.25' },
];

describe('DataTable sorting', () => {
  it('a sortable column sorts on a click (amounts by value, not as text), again reverses it, and says so', async () => {
    render(
      <DataTable
        caption="Records"
        rows={rows}
        rowKey={(r) => r.id}
        columns={[
          { id: 'name', header: 'Name', cell: (r) => r.name, sortValue: (r) => r.name },
          { id: 'amount', header: 'Amount', numeric: true, cell: (r) => r.amount, sortValue: (r) => r.amount },
          { id: 'plain', header: 'Plain', cell: () => '' },
        ]}
      />,
    );
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[0]?.textContent);
    expect(names()).toEqual(['beta', 'alpha', 'gamma']);
    await userEvent.click(screen.getByTestId('sort-amount'));
    expect(names()).toEqual(['gamma', 'beta', 'alpha']);
    expect(screen.getByTestId('sort-amount').closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    await userEvent.click(screen.getByTestId('sort-amount'));
    expect(names()).toEqual(['alpha', 'beta', 'gamma']);
    expect(screen.getByTestId('sort-amount').closest('th')?.getAttribute('aria-sort')).toBe('descending');
    await userEvent.click(screen.getByTestId('sort-name'));
    expect(names()).toEqual(['alpha', 'beta', 'gamma']);
    expect(screen.queryByTestId('sort-plain')).toBeNull();
  });

  it('compares decimal strings exactly and puts missing values last', () => {
    expect(compareSortValues('0.30000000000000001', '0.3')).toBe(1);
    expect(compareSortValues('100', '99.99')).toBe(1);
    expect(compareSortValues(undefined, '1')).toBe(1);
    expect(compareSortValues('TRX', 'ETH')).toBeGreaterThan(0);
  });
});

describe('history search', () => {
  it('finds a record by txid, address or id, ignoring case and the spaces of a grouped address', () => {
    const fields = ['w123', '0xABCDEF', 'TQn9 Y2kh 1sRc'];
    expect(matchesSearch('', fields)).toBe(true);
    expect(matchesSearch('abcd', fields)).toBe(true);
    expect(matchesSearch('tqn9y2kh', fields)).toBe(true);
    expect(matchesSearch(' W123 ', fields)).toBe(true);
    expect(matchesSearch('zzz', fields)).toBe(false);
  });
});
