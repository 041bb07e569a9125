/**
 * Compact tables. The primitives (Table, Th, Td, …) fit TanStack Table's header groups and
 * TanStack Virtual's rows; DataTable is the ready-made version for plain lists.
 */

import Decimal from 'decimal.js';
import {
  type HTMLAttributes,
  type ReactNode,
  type RefObject,
  type TdHTMLAttributes,
  type ThHTMLAttributes,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { EmptyState } from './EmptyState';
import './Table.css';

/**
 * Whether the element's content is wider than the element (it scrolls sideways). Followed with a
 * ResizeObserver: the window, the columns or the rows may change it.
 */
export const useScrollsSideways = (ref: RefObject<HTMLElement | null>): boolean => {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const table = element.firstElementChild;
    if (table) observer.observe(table);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
};

export const Table = ({
  caption,
  children,
  className,
  testId,
  stickyHeader = true,
}: {
  /** Read by screen readers; visually hidden. Also names the scrolling region. */
  readonly caption: string;
  readonly children: ReactNode;
  readonly className?: string;
  readonly testId?: string;
  readonly stickyHeader?: boolean;
}) => {
  const wrap = useRef<HTMLDivElement>(null);
  // A table wider than its place scrolls inside the wrapper: keyboard users must reach it
  // (focusable) and hear what it is (a named region). Cells wrap first, so this is rare.
  const scrolls = useScrollsSideways(wrap);
  return (
    <div
      ref={wrap}
      className={['table-wrap', stickyHeader ? 'table-sticky' : ''].filter(Boolean).join(' ')}
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${caption} (scrolls sideways)` } : {})}
      data-scrolls={scrolls || undefined}
    >
      <table className={['table', className].filter(Boolean).join(' ')} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
};

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
  /**
   * Makes the column sortable (DataTable): the value rows are ordered by. Decimal strings compare
   * as numbers (exactly), other strings alphabetically.
   */
  readonly sortValue?: (row: Row) => string | number | undefined;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Orders two sort values: numbers and decimal strings by value, other text alphabetically, missing last. */
export const compareSortValues = (a: string | number | undefined, b: string | number | undefined): number => {
  if (a === undefined || a === '') return b === undefined || b === '' ? 0 : 1;
  if (b === undefined || b === '') return -1;
  const numeric = (v: string | number) => typeof v === 'number' || DECIMAL.test(v);
  if (numeric(a) && numeric(b)) {
    const x = new Decimal(a);
    return x.comparedTo(new Decimal(b));
  }
  return String(a).localeCompare(String(b));
};

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

/** Which column the rows are ordered by, and which way. */
export interface SortState {
  readonly id: string;
  readonly descending: boolean;
}

/** A table's sort: the rows in order, and what clicking a column's header does (first ascending, then the other way). */
export const useSortedRows = <Row,>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  initial?: SortState,
): { sorted: readonly Row[]; sort: SortState | undefined; toggle: (id: string) => void } => {
  const [sort, setSort] = useState<SortState | undefined>(initial);
  const sorted = useMemo(() => {
    const column = sort === undefined ? undefined : columns.find((c) => c.id === sort.id);
    if (column?.sortValue === undefined || sort === undefined) return rows;
    const value = column.sortValue;
    const ordered = [...rows].sort((a, b) => compareSortValues(value(a), value(b)));
    return sort.descending ? ordered.reverse() : ordered;
  }, [rows, columns, sort]);
  const toggle = (id: string) =>
    setSort((s) => (s?.id === id ? { id, descending: !s.descending } : { id, descending: false }));
  return { sorted, sort, toggle };
};

/** A header cell's content: a sort button for a sortable column (its state in aria-sort on the th). */
export const SortableHeader = <Row,>({
  column,
  sort,
  onSort,
}: {
  readonly column: Column<Row>;
  readonly sort: SortState | undefined;
  readonly onSort: ((id: string) => void) | undefined;
}) => {
  if (!column.sortValue || !onSort) return <>{column.header}</>;
  const active = sort?.id === column.id;
  return (
    <button type="button" className="sort-header" data-testid={`sort-${column.id}`} onClick={() => onSort(column.id)}>
      {column.header}
      <span aria-hidden="true">{active ? (sort?.descending ? ' ▼' : ' ▲') : ''}</span>
    </button>
  );
};

/** aria-sort of a header cell. */
export const ariaSort = (id: string, sort: SortState | undefined): 'ascending' | 'descending' | undefined =>
  sort?.id === id ? (sort.descending ? 'descending' : 'ascending') : undefined;

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
  const { sorted, sort, toggle } = useSortedRows(rows, columns);
  if (rows.length === 0) return <>{empty ?? <EmptyState title="Nothing to show" />}</>;
  return (
    <Table caption={caption} {...(testId ? { testId } : {})}>
      <THead>
        <Tr>
          {columns.map((column) => (
            <Th
              key={column.id}
              numeric={column.numeric}
              style={column.width ? { width: column.width } : undefined}
              aria-sort={ariaSort(column.id, sort)}
            >
              <SortableHeader column={column} sort={sort} onSort={toggle} />
            </Th>
          ))}
        </Tr>
      </THead>
      <TBody>
        {sorted.map((row) => {
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
