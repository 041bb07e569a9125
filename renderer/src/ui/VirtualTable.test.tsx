import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { VirtualTable } from './VirtualTable';

/** Every way the table could ask the browser for a size or a scroll position (each forces a layout). */
let sizeReads: MockInstance[] = [];

// happy-dom lays nothing out: give every element the size of a 600 px high scroll area.
beforeEach(() => {
  const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    x: 0,
    y: 0,
    top: 0,
    left: 0,
    bottom: 600,
    right: 1000,
    width: 1000,
    height: 600,
    toJSON: () => ({}),
  });
  sizeReads = [
    rect,
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(600),
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(1000),
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600),
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000),
    vi.spyOn(HTMLElement.prototype, 'scrollTop', 'get').mockReturnValue(0),
    vi.spyOn(Element.prototype, 'scrollTo').mockImplementation(() => {}),
  ];
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

type Row = { id: number; name: string };
const columns = [
  { id: 'id', header: 'ID', cell: (r: Row) => String(r.id) },
  { id: 'name', header: 'Name', cell: (r: Row) => r.name },
];

describe('VirtualTable', () => {
  it('draws only the rows in view of 50,000, says how many it holds, and asks for the rows in view', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `row ${i}` }));
    const onRangeChange = vi.fn();
    render(
      <VirtualTable
        caption="Many rows"
        testId="t"
        columns={columns}
        rowCount={rows.length}
        rowAt={(i) => rows[i]}
        rowKey={(r) => String(r.id)}
        onRangeChange={onRangeChange}
      />,
    );
    const table = screen.getByTestId('t');
    expect(table.getAttribute('data-row-count')).toBe('50000');
    expect(table.getAttribute('aria-rowcount')).toBe('50001');
    const drawn = table.querySelectorAll('tbody tr[data-row-key]');
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(100);
    expect(drawn[0]?.getAttribute('aria-rowindex')).toBe('2');
    expect(onRangeChange).toHaveBeenCalledWith(0, expect.any(Number));
    expect(screen.getByRole('region').getAttribute('aria-label')).toContain('50000 rows');
  });

  it('draws a new table without asking the browser for a size or scrolling it (each forces a layout in the task that draws the rows)', () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `row ${i}` }));
    render(
      <VirtualTable
        caption="Accounts"
        testId="t"
        columns={columns}
        rowCount={rows.length}
        rowAt={(i) => rows[i]}
        rowKey={(r) => String(r.id)}
        estimateRowHeight={48}
      />,
    );
    expect(screen.getByTestId('t').querySelectorAll('tbody tr[data-row-key]').length).toBeGreaterThan(10);
    for (const read of sizeReads) expect(read).not.toHaveBeenCalled();
  });

  it('draws a placeholder for a row not loaded yet, and the empty state for no rows', () => {
    const { unmount } = render(
      <VirtualTable
        caption="Paged"
        testId="t"
        columns={columns}
        rowCount={3}
        rowAt={(i) => (i === 0 ? { id: 0, name: 'first' } : undefined)}
        rowKey={(r) => String(r.id)}
      />,
    );
    expect(screen.getByText('first')).toBeDefined();
    expect(screen.getAllByText('Loading…').length).toBeGreaterThanOrEqual(1);
    unmount();
    render(
      <VirtualTable
        caption="None"
        columns={columns}
        rowCount={0}
        rowAt={() => undefined}
        rowKey={(r) => String(r.id)}
        empty={<p>Nothing here</p>}
      />,
    );
    expect(screen.getByText('Nothing here')).toBeDefined();
  });
});
