/**
 * Compact tables. The primitives (Table, Th, Td, …) fit TanStack Table's header groups and
 * TanStack Virtual's rows; DataTable is the ready-made version for plain lists.
 */
import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { EmptyState } from './EmptyState';

export const Table = ({
  caption,
  children,
  className,
  testId,
  stickyHeader = true,
}: {
  /** Read by screen readers; visually hidden. */
  readonly caption: string;
  readonly children: ReactNode;
  readonly className?: string;
  readonly testId?: string;
  readonly stickyHeader?: boolean;
}) => (
  <div className={['table-wrap', stickyHeader ? 'table-sticky' : ''].filter(Boolean).join(' ')}>
    <table className={['table', className].filter(Boolean).join(' ')} data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      {children}
    </table>
  </div>
);

export const THead = (props: HTMLAttributes<HTMLTableSectionElement>) => <thead {...props} />;
export const TBody = (props: HTMLAttributes<HTMLTableSectionElement>) => <tbody {...props} />;
export const Tr = (props: HTMLAttributes<HTMLTableRowElement>) => <tr {...props} />;

type Align = 'left' | 'right' | 'center';

export const Th = ({
  numeric,
  align,
  className,
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & { readonly numeric?: boolean; readonly align?: Align }) => (
  <th
    scope="col"
    {...rest}
    className={[numeric || align === 'right' ? 'num' : '', align === 'center' ? 'center' : '', className]
      .filter(Boolean)
      .join(' ')}
  />
);

export const Td = ({
  numeric,
  align,
  className,
  ...rest
}: TdHTMLAttributes<HTMLTableCellElement> & { readonly numeric?: boolean; readonly align?: Align }) => (
  <td
    {...rest}
    className={[numeric || align === 'right' ? 'num' : '', align === 'center' ? 'center' : '', className]
      .filter(Boolean)
      .join(' ')}
  />
);

export interface Column<Row> {
  readonly id: string;
  readonly header: ReactNode;
  readonly cell: (row: Row) => ReactNode;
  /** Right-aligned, fixed-width digits. */
  readonly numeric?: boolean;
  readonly width?: string;
}

export interface DataTableProps<Row> {
  readonly caption: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => string;
  readonly empty?: ReactNode;
  readonly testId?: string;
  readonly onRowClick?: (row: Row) => void;
  readonly selectedKey?: string;
}

export const DataTable = <Row,>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  testId,
  onRowClick,
  selectedKey,
}: DataTableProps<Row>) => {
  if (rows.length === 0) return <>{empty ?? <EmptyState title="Nothing to show" />}</>;
  return (
    <Table caption={caption} {...(testId ? { testId } : {})}>
      <THead>
        <Tr>
          {columns.map((column) => (
            <Th key={column.id} numeric={column.numeric} style={column.width ? { width: column.width } : undefined}>
              {column.header}
            </Th>
          ))}
        </Tr>
      </THead>
      <TBody>
        {rows.map((row) => {
          const key = rowKey(row);
          return (
            <Tr
              key={key}
              data-row-key={key}
              aria-selected={selectedKey === undefined ? undefined : selectedKey === key}
              className={onRowClick ? 'row-clickable' : undefined}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
            >
              {columns.map((column) => (
                <Td key={column.id} numeric={column.numeric}>
                  {column.cell(row)}
                </Td>
              ))}
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
};
