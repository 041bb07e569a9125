import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeskCallError } from '../lib/desk';
import { AMOUNT_FORMAT_MESSAGE } from '../lib/format';
import { useNavigation } from '../lib/navigation';
import { installFakeDesk } from '../lib/testing/fakeDesk';
import { AmountField, amountProblem, amountValue } from './AmountField';
import { DetailsList } from './DetailsList';
import { ErrorNotice } from './ErrorNotice';
import { ExportCsvButton } from './ExportCsvButton';
import { FieldError } from './FieldError';
import { DataTable } from './Table';
import { Tabs } from './Tabs';

afterEach(cleanup);

const AmountHarness = ({ onChange }: { onChange: (v: string) => void }) => {
  const [value, setValue] = useState('');
  return (
    <AmountField
      label="Amount"
      value={value}
      precision={2}
      currency="USDT"
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
};

const TabsHarness = () => {
  const [tab, setTab] = useState<'a' | 'b' | 'c'>('a');
  return (
    <Tabs
      label="Views"
      value={tab}
      onChange={setTab}
      tabs={[
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
        { id: 'c', label: 'C' },
      ]}
    >
      <p>panel {tab}</p>
    </Tabs>
  );
};

describe('amountProblem', () => {
  it.each([
    ['', undefined],
    ['12.5', undefined],
    ['1,000', undefined],
    ['1 000', undefined],
    ['.5', undefined],
    ['100.', undefined],
    [' 1\u00a0000.50 ', undefined],
    ['1.10000000000', undefined],
    ['abc', AMOUNT_FORMAT_MESSAGE],
    ['1.2.3', AMOUNT_FORMAT_MESSAGE],
    ['1,5', AMOUNT_FORMAT_MESSAGE],
    ['1.000,5', AMOUNT_FORMAT_MESSAGE],
    ['-1', 'The amount cannot be negative.'],
    ['0', 'The amount must be more than zero.'],
    ['1.123456789', 'Use at most 8 digits after the point.'],
  ])('“%s” → %s', (value, problem) => {
    expect(amountProblem(value, { precision: 8 })).toBe(problem);
  });

  it('asks for a value only when required', () => {
    expect(amountProblem('', { required: true })).toBe('Enter an amount.');
  });

  it('gives the canonical value to send', () => {
    expect(amountValue('1,000.50')).toBe('1000.5');
    expect(amountValue('.5')).toBe('0.5');
    expect(amountValue('1,5')).toBeUndefined();
  });
});

describe('AmountField', () => {
  it('keeps the typed string and shows the problem inline, linked to the input', async () => {
    const onChange = vi.fn();
    render(<AmountHarness onChange={onChange} />);
    const input = screen.getByLabelText('Amount');
    await userEvent.type(input, '1.234');
    expect(onChange).toHaveBeenLastCalledWith('1.234');
    expect(input).toHaveProperty('value', '1.234');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe('Use at most 2 digits after the point.');
    expect(input.getAttribute('aria-describedby')).toContain(error.id);
  });
});

describe('FieldError', () => {
  it('says a problem under its field, announced, and is nothing without one', () => {
    const { container, rerender } = render(<FieldError message={undefined} />);
    expect(container.innerHTML).toBe('');
    rerender(<FieldError message="Below the minimum." testId="x" />);
    expect(screen.getByRole('alert').textContent).toBe('Below the minimum.');
    expect(screen.getByTestId('x')).toBeTruthy();
  });
});

describe('ErrorNotice', () => {
  it('says what happened in plain words with the label, request id and advice', () => {
    const error = new DeskCallError('funding.withdraw', {
      code: 'PLATFORM',
      message: 'Request IP not in whitelist',
      label: 'IP_FORBIDDEN',
      requestId: 'r-123',
      advice: 'Add this computer’s IP to the key’s whitelist.',
    });
    render(<ErrorNotice error={error} />);
    const notice = screen.getByRole('alert');
    expect(notice.textContent).toContain('The platform refused the request.');
    expect(notice.textContent).toContain('Request IP not in whitelist');
    expect(screen.getByTestId('error-label').textContent).toBe('IP_FORBIDDEN');
    expect(screen.getByTestId('error-request-id').textContent).toBe('r-123');
    expect(notice.textContent).toContain('whitelist.');
  });

  it('says a wrong passphrase is one, and never calls the app’s own label the platform’s', () => {
    const error = new DeskCallError('operators.signIn', {
      code: 'NOT_ALLOWED',
      label: 'WRONG_PASSPHRASE',
      message: 'That name and passphrase do not match an operator of this desk.',
    });
    render(<ErrorNotice error={error} />);
    const notice = screen.getByRole('alert');
    expect(notice.querySelector('.notice-title')?.textContent).toBe('The name or the passphrase is wrong.');
    expect(notice.textContent).not.toContain('role');
    expect(notice.textContent).not.toContain('Platform');
    expect(notice.textContent).toContain('App’s code');
  });

  it('keeps codes inside Details, out of the sentence', () => {
    const error = new DeskCallError('transfers.subAccount', {
      code: 'PLATFORM',
      message: 'The sub-account is locked.',
      label: 'SUB_ACCOUNT_LOCKED',
    });
    render(<ErrorNotice error={error} />);
    const label = screen.getByTestId('error-label');
    expect(label.closest('details')?.querySelector('summary')?.textContent).toBe('Details');
    expect(screen.getByRole('alert').querySelector('.notice-title')?.textContent).not.toContain('SUB_ACCOUNT_LOCKED');
  });

  it('shows queued for approval as an outcome: one sentence, the expiry formatted, a way to Approvals', async () => {
    const expiresAt = Date.UTC(2026, 10, 27, 22, 54, 53);
    const error = new DeskCallError('funding.withdraw', {
      code: 'AWAITING_APPROVAL',
      message: 'Waiting for approval (ap_d4f9): Above 50 USDT needs approval.',
      approval: { id: 'ap_d4f9', expiresAt, reasons: ['Above 50 USDT needs approval.'] },
    });
    render(<ErrorNotice error={error} />);
    expect(screen.queryByRole('alert')).toBeNull();
    const notice = screen.getByTestId('queued-for-approval');
    expect(notice.getAttribute('data-tone')).toBe('info');
    const text = notice.textContent ?? '';
    expect(text.match(/nothing was sent/gi)).toHaveLength(1);
    expect(text).not.toContain('ap_d4f9');
    expect(text).not.toContain('T22:54:53');
    expect(notice.querySelector('time')?.getAttribute('datetime')).toBe(new Date(expiresAt).toISOString());
    await userEvent.click(screen.getByTestId('queued-open-approvals'));
    expect(useNavigation.getState().screen).toBe('approvals');
  });

  it('warns not to repeat a movement whose outcome is unknown', () => {
    render(
      <ErrorNotice error={new DeskCallError('funding.withdraw', { code: 'OUTCOME_UNKNOWN', message: 'Timed out.' })} />,
    );
    expect(screen.getByRole('alert').textContent).toContain('do not repeat it');
  });

  it('shows per-field problems of invalid input', () => {
    render(
      <ErrorNotice
        error={
          new DeskCallError('x.y', { code: 'INVALID_INPUT', message: 'Bad.', fields: { amount: 'Too many decimals' } })
        }
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('amount: Too many decimals');
  });
});

describe('Tabs', () => {
  it('moves between tabs with the arrow keys', async () => {
    render(<TabsHarness />);
    screen.getByRole('tab', { name: 'A' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'B' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('panel b');
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'C' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('DataTable', () => {
  const table = (
    <DataTable
      caption="Deposits"
      columns={[{ id: 'id', header: 'ID', cell: (row: { id: string }) => row.id }]}
      rows={[{ id: 'd1' }]}
      rowKey={(row) => row.id}
    />
  );

  it('is not a tab stop while it fits', () => {
    render(table);
    const wrap = screen.getByRole('table').parentElement as HTMLElement;
    expect(wrap.hasAttribute('tabindex')).toBe(false);
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('makes a table that scrolls sideways a focusable, named region (keyboard users can scroll it)', () => {
    const scrollWidth = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(900);
    const clientWidth = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400);
    try {
      render(table);
      const region = screen.getByRole('region', { name: /Deposits/ });
      expect(region.getAttribute('tabindex')).toBe('0');
      expect(region.querySelector('table')).not.toBeNull();
    } finally {
      scrollWidth.mockRestore();
      clientWidth.mockRestore();
    }
  });
});

describe('ExportCsvButton', () => {
  afterEach(() => Reflect.deleteProperty(window, 'desk'));

  it('saves what it built through main', async () => {
    const saveFile = vi.fn(() => ({ path: '/tmp/x.csv' }));
    installFakeDesk({ 'app.saveFile': saveFile });
    render(<ExportCsvButton testId="export" build={() => ({ fileName: 'x.csv', csv: 'a\r\n' })} />);
    await userEvent.click(screen.getByTestId('export'));
    expect(saveFile).toHaveBeenCalledWith({ suggestedName: 'x.csv', content: '\uFEFFa\r\n', mimeType: 'text/csv' });
  });

  it('shows why the file could not be built, and saves nothing', async () => {
    const saveFile = vi.fn();
    installFakeDesk({ 'app.saveFile': saveFile });
    render(
      <ExportCsvButton
        testId="export"
        build={async () => {
          throw new DeskCallError('activity.exportAuditCsv', { code: 'LOCKED', message: 'The app is locked.' });
        }}
      />,
    );
    await userEvent.click(screen.getByTestId('export'));
    expect((await screen.findByTestId('error-notice')).textContent).toContain('The app is locked.');
    expect(saveFile).not.toHaveBeenCalled();
    expect((screen.getByTestId('export') as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('DetailsList', () => {
  it('pairs each label with its value, in order, and leaves out the rows a record lacks', () => {
    const memo: string | undefined = undefined;
    const { container } = render(
      <DetailsList
        rows={[
          { label: 'Amount', value: '12 USDT' },
          memo ? { label: 'Memo', value: memo } : null,
          { label: 'Withdrawal id', value: <code>w1</code>, testId: 'detail-id' },
        ]}
      />,
    );
    const list = container.querySelector('dl');
    expect(list?.className).toBe('facts');
    expect([...(list?.children ?? [])].map((e) => `${e.tagName} ${e.textContent}`)).toEqual([
      'DT Amount',
      'DD 12 USDT',
      'DT Withdrawal id',
      'DD w1',
    ]);
    expect(screen.getByTestId('detail-id').tagName).toBe('DD');
  });

  it('the review variant is styled as a confirmation list', () => {
    const { container } = render(<DetailsList variant="review" rows={[{ label: 'Amount', value: '1 USDT' }]} />);
    expect(container.querySelector('dl')?.className).toBe('review-list');
  });
});
