/**
 * A table for long lists (tens of thousands of rows): only the rows in view (plus a few) are in the
 * DOM (TanStack Virtual), so opening, scrolling and filtering cost the same for 50 rows or 50,000.
 * Rows may come from memory (`rowAt = (i) => rows[i]`) or page by page from main: `rowAt` returns
 * undefined for a row not loaded yet (a placeholder is drawn) and `onRangeChange` says which rows
 * are in view, so the screen loads exactly those pages.
 *
 * Columns fit what the rows in view hold (a cell never clips or splits what it shows; a `width` on
 * a column keeps it steady while rows scroll in and out); a row's height is measured once drawn, so
 * wrapped cells are fine.
 */
import { elementScroll, measureElement, observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useRef } from 'react';
import { EmptyState } from './EmptyState';
import { ariaSort, type Column, SortableHeader, type SortState } from './Table';
import './Table.css';

export interface VirtualTableProps<Row> {
  readonly caption: string;
  readonly columns: readonly Column<Row>[];
  /** Every row the list has, loaded or not: the scroll bar and the screen reader's count use it. */
  readonly rowCount: number;
  /** The row at an index, or undefined while it is still being loaded. */
  readonly rowAt: (index: number) => Row | undefined;
  readonly rowKey: (row: Row, index: number) => string;
  /** Called with the first and last index in view (plus overscan) whenever they change. */
  readonly onRangeChange?: (first: number, last: number) => void;
  readonly empty?: ReactNode;
  readonly testId?: string;
  /** CSS height of the scrolling area (default: up to 65 % of the window). */
  readonly maxHeight?: string;
  readonly estimateRowHeight?: number;
  readonly onRowClick?: (row: Row) => void;
  readonly selectedKey?: string;
  /**
   * Sortable columns (those with `sortValue`): the order the rows are in, and what a header click
   * asks for. The caller orders the rows (they may be paged from main): `useSortedRows` does it for
   * rows in memory.
   */
  readonly sort?: SortState | undefined;
  readonly onSort?: (id: string) => void;
}

/**
 * The scrolling area's size as the resize observer reports it, after the browser's own layout. The
 * library's default also reads it at once when the table mounts, which forces a layout of the whole
 * page inside the task that draws the table; until the first report, `initialRect` stands in.
 */
const observeRectAfterLayout: typeof observeElementRect = (instance, onRect) => {
  const element = instance.scrollElement;
  const Observer = instance.targetWindow?.ResizeObserver;
  if (!element || !Observer) return observeElementRect(instance, onRect);
  const observer = new Observer(() => onRect({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
};

/**
 * Scrolls the area, except to where it is known to be already: the library writes its offset (0)
 * when the table mounts, and a write forces a layout of the whole page in the task that draws the
 * table — a new scrolling area is at the top. Its offset is known from its scroll events.
 */
const scrollUnlessThere: typeof elementScroll = (offset, options, instance) => {
  if (offset + (options.adjustments ?? 0) === instance.scrollOffset && !instance.isScrolling) return;
  elementScroll(offset, options, instance);
};

export const VirtualTable = <Row,>({
  caption,
  columns,
  rowCount,
  rowAt,
  rowKey,
  onRangeChange,
  empty,
  testId,
  maxHeight = '65vh',
  estimateRowHeight = 29,
  onRowClick,
  selectedKey,
  sort,
  onSort,
}: VirtualTableProps<Row>) => {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimateRowHeight,
    overscan: 12,
    // Before the scrolling area is measured, assume it is as tall as it can be (65 % of the window):
    // the first render then draws the rows in view at once, instead of none and then a second render
    // and layout in the same task (500 accounts' first draw was two of each).
    initialRect: { width: 0, height: Math.round(window.innerHeight * 0.65) },
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollUnlessThere,
    // A row is sized by the resize observer, after the browser's own layout, never by reading its
    // height while React draws it: that read forced a layout of the whole page inside the task that
    // drew the rows (the firm-wide view's longest task, issue 26). Until then a row keeps the size
    // it was last seen at, else the estimate.
    measureElement: (element, entry, instance) =>
      entry === undefined
        ? (instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(element))) ??
          estimateRowHeight)
        : measureElement(element, entry, instance),
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (last >= first) onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

  if (rowCount === 0) return <>{empty ?? <EmptyState title="Nothing to show" />}</>;
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0);
  return (
    <div
      ref={scroller}
      className="table-wrap table-sticky table-virtual"
      style={{ maxHeight }}
      // The list scrolls inside this region: keyboard users reach it and hear what it is.
      {...{ tabIndex: 0, role: 'region', 'aria-label': `${caption} (${rowCount} rows, scrolls)` }}
    >
      <table className="table" data-testid={testId} aria-rowcount={rowCount + 1} data-row-count={rowCount}>
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          {columns.map((column) => (
            <col key={column.id} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                className={column.numeric ? 'num' : undefined}
                aria-sort={onSort ? ariaSort(column.id, sort) : undefined}
              >
                <SortableHeader column={column} sort={sort} onSort={onSort} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 ? <tr style={{ height: before }} className="virtual-spacer" /> : null}
          {items.map((item) => {
            const row = rowAt(item.index);
            if (row === undefined) {
              return (
                <tr
                  key={`loading-${item.index}`}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  aria-rowindex={item.index + 2}
                  aria-busy="true"
                  className="row-loading"
                >
                  <td colSpan={columns.length}>
                    <span className="muted">Loading…</span>
                  </td>
                </tr>
              );
            }
            const key = rowKey(row, item.index);
            return (
              <tr
                key={key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                data-row-key={key}
                aria-rowindex={item.index + 2}
                aria-selected={selectedKey === undefined ? undefined : selectedKey === key}
                className={onRowClick ? 'row-clickable' : undefined}
                onClick={onRowClick ? () => onRowClick(row) : undefined}
              >
                {columns.map((column) => (
                  <td key={column.id} className={column.numeric ? 'num' : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {after > 0 ? <tr style={{ height: after }} className="virtual-spacer" /> : null}
        </tbody>
      </table>
    </div>
  );
};
