import type { BatchPreview, PreviewRow } from '../../../../shared/contract/bulk';
import { formatMoney, formatMoneyOrText } from '../../lib/format';
import { Badge, type Column, DataTable, Notice, VirtualTable } from '../../ui';

const columns: readonly Column<PreviewRow>[] = [
  { id: 'row', header: 'Row', cell: (r) => String(r.row), numeric: true, width: '4rem' },
  { id: 'kind', header: 'Type', cell: (r) => r.kind, width: '11rem' },
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
  { id: 'from', header: 'From', cell: (r) => r.from },
  { id: 'to', header: 'To', cell: (r) => <span className="mono">{r.to}</span> },
  {
    id: 'check',
    header: 'Check',
    cell: (r) =>
      r.errors.length === 0 && r.warnings.length === 0 ? (
        <Badge tone="good">OK</Badge>
      ) : (
        <ul className="bulk-problems" data-testid={`bulk-row-problems-${r.row}`}>
          {r.errors.map((e) => (
            <li key={`e${e}`} className="bad">
              Row {r.row}: {e}
            </li>
          ))}
          {r.warnings.map((w) => (
            <li key={`w${w}`} className="warn">
              {w}
            </li>
          ))}
        </ul>
      ),
  },
];

/** Every row of a batch with what main found, problems inline with their row numbers, and totals. */
export const PreviewTable = ({ preview }: { readonly preview: BatchPreview }) => (
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
          {preview.warningCount > 0 ? ` · ${preview.warningCount} warning${preview.warningCount === 1 ? '' : 's'}` : ''}
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
          caption="Totals per source account"
          columns={[
            { id: 'source', header: 'From', cell: (t) => t.source },
            { id: 'rows', header: 'Rows', cell: (t) => String(t.rows), numeric: true },
            {
              id: 'total',
              header: 'Leaves (fees included)',
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
      </>
    ) : null}
  </section>
);
