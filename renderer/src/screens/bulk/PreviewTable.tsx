/**
 * A batch's preview: every row with what main found, each destination named as the address book
 * and the sub-account list name it (the address abbreviated beside it), the row's reference, the
 * pace the platform imposes (one withdrawal a minute to one address) said on the rows it delays,
 * and one total per source with fees included — the same figure the confirmation shows.
 */
import Decimal from 'decimal.js';
import { useMemo } from 'react';
import type { AccountRef, BatchPreview, PreviewRow } from '../../../../shared/contract/bulk';
import { transferAccountWords } from '../../../../shared/contract/transfers';
import { type AddressLookup, useAddressBook } from '../../lib/addressBook';
import { useDeskQuery } from '../../lib/desk';
import { formatMoney, formatMoneyOrText } from '../../lib/format';
import { abbreviate, Badge, type Column, DataTable, Notice, VirtualTable } from '../../ui';

/** The platform allows one withdrawal a minute to one address: later rows to it wait their turn. */
export const WITHDRAWAL_PACE_MINUTES = 1;

/**
 * For each withdrawal row that goes to an address an earlier row of the batch already goes to: how
 * many minutes it waits for its turn (rows keyed by row number).
 */
export const pacedRows = (rows: readonly PreviewRow[]): Map<number, number> => {
  const seen = new Map<string, number>();
  const waits = new Map<number, number>();
  for (const r of rows) {
    if (r.input?.type !== 'withdrawal') continue;
    const key = `${r.input.chain}|${r.input.address}`;
    const before = seen.get(key) ?? 0;
    if (before > 0) waits.set(r.row, before * WITHDRAWAL_PACE_MINUTES);
    seen.set(key, before + 1);
  }
  return waits;
};

type SubName = (uid: number) => string;

/** An account of a transfer row in words: "main spot", "desk_ops (UID 10000003) perpetual futures". */
const accountWords = (ref: AccountRef, subName: SubName): string =>
  `${ref.owner === 'main' ? 'main' : subName(ref.owner)} ${transferAccountWords(ref.account)}${ref.pair ? ` ${ref.pair}` : ''}`;

/** Where a row's money goes, named. */
const destination = (r: PreviewRow, book: AddressLookup, subName: SubName) => {
  const input = r.input;
  if (input === undefined) return <span className="mono">{r.to}</span>;
  if (input.type === 'withdrawal') {
    const saved = book(input.chain, input.address, input.memo);
    return (
      <>
        <span className="nowrap">{saved?.name ?? 'Not in the address book'}</span>
        <div className="muted">
          <code title={input.address}>{abbreviate(input.address)}</code> · {input.chain}
          {input.memo ? ` · memo ${input.memo}` : ''}
        </div>
      </>
    );
  }
  if (input.type === 'push') return <span className="nowrap">UID {input.receiveUid}</span>;
  return <span>{accountWords(input.to, subName)}</span>;
};

/** Every row of a batch with what main found, problems inline with their row numbers, and totals. */
export const PreviewTable = ({ preview }: { readonly preview: BatchPreview }) => {
  const subs = useDeskQuery(['subAccounts.list', {}], { staleTime: 60_000 });
  const subName: SubName = (uid) => {
    const account = subs.data?.accounts.find((a) => a.userId === uid);
    return account ? `${account.loginName} (UID ${uid})` : `sub-account UID ${uid}`;
  };
  const book = useAddressBook(
    preview.rows.flatMap((r) =>
      r.input?.type === 'withdrawal' ? [{ currency: r.input.currency, chain: r.input.chain }] : [],
    ),
  );
  const paced = useMemo(() => pacedRows(preview.rows), [preview.rows]);
  const fees = preview.rows.reduce((sum, r) => (r.fee ? sum.plus(r.fee) : sum), new Decimal(0));
  const columns: readonly Column<PreviewRow>[] = [
    { id: 'row', header: 'Row', cell: (r) => String(r.row), numeric: true },
    { id: 'kind', header: 'Type', cell: (r) => <span className="nowrap">{r.kind}</span> },
    {
      id: 'amount',
      header: 'Amount',
      numeric: true,
      cell: (r) => (
        <>
          {formatMoneyOrText(r.amount, r.currency)}
          {r.fee ? <div className="muted">+ fee {formatMoney(r.fee, r.currency)}</div> : null}
        </>
      ),
    },
    {
      id: 'from',
      header: 'From',
      cell: (r) =>
        r.input && r.input.type === 'transfer' ? accountWords(r.input.from, subName) : <span>{r.from}</span>,
    },
    { id: 'to', header: 'To', cell: (r) => destination(r, book, subName) },
    { id: 'reference', header: 'Reference', cell: (r) => r.input?.reference || <span className="muted">—</span> },
    {
      id: 'check',
      header: 'Check',
      cell: (r) => {
        const wait = paced.get(r.row);
        const warnings = [
          ...r.warnings,
          ...(wait !== undefined
            ? [
                `Waits about ${wait} min: the platform takes one withdrawal a minute to one address, and an earlier row goes there.`,
              ]
            : []),
        ];
        return r.errors.length === 0 && warnings.length === 0 ? (
          <Badge tone="good">OK</Badge>
        ) : (
          <ul className="bulk-problems" data-testid={`bulk-row-problems-${r.row}`}>
            {r.errors.map((e) => (
              <li key={`e${e}`} className="bad">
                Row {r.row}: {e}
              </li>
            ))}
            {warnings.map((w) => (
              <li key={`w${w}`} className="warn">
                {w}
              </li>
            ))}
          </ul>
        );
      },
    },
  ];
  return (
    <section aria-label="Preview" data-testid="bulk-preview">
      {preview.fileProblems.length > 0 ? (
        <Notice tone="bad" role="alert" data-testid="bulk-file-problems">
          <strong>This file cannot be used; nothing was sent.</strong>
          <ul>
            {preview.fileProblems.map((p) => (
              <li key={`${p.row ?? ''}${p.message}`}>
                {p.row !== undefined ? `Row ${p.row}: ` : ''}
                {p.message}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {preview.rows.length > 0 ? (
        <>
          <p data-testid="bulk-preview-summary" role="status">
            {preview.rows.length} rows ·{' '}
            {preview.errorCount === 0
              ? 'no errors'
              : `${preview.errorCount} error${preview.errorCount === 1 ? '' : 's'}: fix them in the file and check again; nothing is sent while one remains`}
            {preview.warningCount > 0
              ? ` · ${preview.warningCount} warning${preview.warningCount === 1 ? '' : 's'}`
              : ''}
            {paced.size > 0
              ? ` · ${paced.size} row${paced.size === 1 ? '' : 's'} wait${paced.size === 1 ? 's' : ''} for the one-a-minute pace`
              : ''}
            {preview.approval?.required ? ` · needs approval: ${preview.approval.reason ?? ''}` : ''}
          </p>
          <VirtualTable
            caption="Rows of the batch"
            columns={columns}
            rowCount={preview.rows.length}
            rowAt={(i) => preview.rows[i]}
            rowKey={(r) => String(r.row)}
            maxHeight="24rem"
            estimateRowHeight={44}
            testId="bulk-preview-rows"
          />
          <DataTable
            caption="What leaves each account, fees included"
            testId="bulk-preview-totals"
            columns={[
              { id: 'source', header: 'From', cell: (t) => t.source },
              { id: 'rows', header: 'Rows', cell: (t) => String(t.rows), numeric: true },
              {
                id: 'total',
                header: 'Total, fees included',
                cell: (t) => formatMoney(t.total, t.currency),
                numeric: true,
              },
              {
                id: 'available',
                header: 'Available',
                numeric: true,
                cell: (t) =>
                  t.available === null ? 'not read (the platform checks)' : formatMoney(t.available, t.currency),
              },
            ]}
            rows={preview.totals}
            rowKey={(t) => `${t.source}${t.currency}`}
          />
          {fees.gt(0) ? (
            <p className="muted" data-testid="bulk-preview-fees">
              The totals include the withdrawal fees (each row shows its own fee).
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
};
