import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeDesk } from '../lib/testing/fakeDesk';
import { ChainId, ChainIdCell } from './ChainId';
import { CopyButton } from './CopyButton';
import { ExplorerLink } from './ExplorerLink';
import { groupsOf, LongId } from './LongId';

const ADDRESS = 'TXYZ0123456789abcdefGHIJ9';
let clipboard: string[] = [];

beforeEach(() => {
  clipboard = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void clipboard.push(text) },
  });
});
afterEach(cleanup);

const withClient = (node: React.ReactNode) => (
  <QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>
);

describe('long identifiers', () => {
  it('are grouped in fours by layout only: the text has no space, the copy is exact', async () => {
    expect(groupsOf(ADDRESS)).toEqual(['TXYZ', '0123', '4567', '89ab', 'cdef', 'GHIJ', '9']);
    render(<LongId value={ADDRESS} testId="id" />);
    const shown = screen.getByTestId('id');
    // What a manual selection and copy gives: the text of the element, with no space at all.
    expect(shown.textContent).toBe(ADDRESS);
    expect(shown.textContent).not.toMatch(/\s/);
    expect(shown.querySelectorAll('.long-id-group')).toHaveLength(7);
    expect(shown.querySelectorAll('.long-id-group')[1]?.textContent).toBe('0123');
  });

  it('the copy button copies exactly the identifier', async () => {
    render(<CopyButton value={ADDRESS} label="Copy address" testId="copy" />);
    fireEvent.click(screen.getByTestId('copy'));
    await waitFor(() => expect(screen.getByTestId('copy').getAttribute('data-state')).toBe('copied'));
    expect(clipboard).toEqual([ADDRESS]);
    // An SVG icon, hidden from assistive technology; the label names the button.
    expect(
      screen.getByRole('button', { name: 'Copy address' }).querySelector('svg[aria-hidden="true"]'),
    ).not.toBeNull();
  });

  it('a txid: grouped text, copy button and explorer link', async () => {
    installFakeDesk({ 'app.openExternal': () => ({ opened: true }) });
    render(withClient(<ChainId chain="ETH" target="tx" value="0xabc123def456" testId="tx" />));
    expect(screen.getByTestId('tx').textContent).toBe('0xabc123def456');
    fireEvent.click(screen.getByTestId('tx-copy'));
    await waitFor(() => expect(clipboard).toEqual(['0xabc123def456']));
    expect(screen.getByTestId('tx-explorer').getAttribute('data-url')).toBe('https://etherscan.io/tx/0xabc123def456');
  });

  it('a table cell abbreviates but copies the whole id', async () => {
    render(withClient(<ChainIdCell chain="TRX" target="tx" value="abcdef0123456789" testId="cell" />));
    expect(screen.getByTestId('cell').textContent).toContain('abcdef…6789');
    fireEvent.click(screen.getByRole('button', { name: 'Copy transaction id' }));
    await waitFor(() => expect(clipboard).toEqual(['abcdef0123456789']));
    expect(screen.getByRole('button', { name: 'View transaction on Tronscan' })).toBeTruthy();
  });
});

describe('explorer links', () => {
  it('opened by main: says so', async () => {
    const desk = installFakeDesk({ 'app.openExternal': () => ({ opened: true }) });
    render(<ExplorerLink chain="BTC" target="tx" id="beef" />);
    fireEvent.click(screen.getByRole('button', { name: /View transaction on mempool.space/ }));
    expect(await screen.findByText('Opened in your browser')).toBeTruthy();
    expect(desk.callsOf('app.openExternal')).toEqual([{ url: 'https://mempool.space/tx/beef' }]);
    expect(clipboard).toEqual([]);
  });

  it('not opened (headless): the link is copied instead, and it says so', async () => {
    installFakeDesk({ 'app.openExternal': () => ({ opened: false, reason: 'headless' }) });
    render(<ExplorerLink chain="SOL" target="address" id="So1abc" />);
    fireEvent.click(screen.getByRole('button', { name: /View address on Solscan/ }));
    expect(await screen.findByText(/Link copied/)).toBeTruthy();
    expect(clipboard).toEqual(['https://solscan.io/account/So1abc']);
  });

  it('a click inside a table row does not select the row', () => {
    installFakeDesk({ 'app.openExternal': () => ({ opened: true }) });
    const onRow = vi.fn();
    render(
      // biome-ignore lint/a11y/useKeyWithClickEvents: a stand-in for a clickable table row
      // biome-ignore lint/a11y/noStaticElementInteractions: a stand-in for a clickable table row
      <div onClick={onRow}>
        <ExplorerLink chain="ETH" target="tx" id="0x1" compact />
        <CopyButton value="0x1" />
      </div>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'View transaction on Etherscan' }));
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(onRow).not.toHaveBeenCalled();
  });

  it('a chain without a known explorer shows no link', () => {
    const { container } = render(<ExplorerLink chain="UNKNOWNCHAIN" target="tx" id="abc" />);
    expect(container.textContent).toBe('');
  });
});
