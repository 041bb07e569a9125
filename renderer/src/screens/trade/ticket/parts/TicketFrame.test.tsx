import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TicketResult } from './TicketFrame';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('TicketResult', () => {
  it('brings a new result into view once (under a tall ticket it would start below the window)', () => {
    const scroll = vi.fn();
    Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', { value: scroll, configurable: true });
    const { rerender } = render(
      <TicketResult testId="r" error={undefined}>
        {null}
      </TicketResult>,
    );
    expect(scroll).not.toHaveBeenCalled();
    rerender(
      <TicketResult testId="r" error={undefined}>
        <p>Trigger t-1 is waiting</p>
      </TicketResult>,
    );
    expect(scroll).toHaveBeenCalledTimes(1);
    expect(scroll).toHaveBeenCalledWith({ block: 'nearest' });
    // Its updates keep the person's scrolling.
    rerender(
      <TicketResult testId="r" error={undefined}>
        <p>Trigger t-1 fired</p>
      </TicketResult>,
    );
    expect(scroll).toHaveBeenCalledTimes(1);
  });
});
