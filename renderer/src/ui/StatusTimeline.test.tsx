import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  DEPOSIT_STATUSES,
  DEPOSIT_STEPS,
  depositTimeline,
  isWithdrawalCancellable,
  PUSH_STATUSES,
  PUSH_STEPS,
  pushTimeline,
  type Timeline,
  WITHDRAWAL_STATUSES,
  WITHDRAWAL_STEPS,
  withdrawalTimeline,
} from '../../../shared/platform/timelines';
import { StatusTimeline } from './StatusTimeline';

/** Expected placement per status: the stage that is current (or the exit label) and whether it is final. */
const withdrawalExpectations: Record<
  (typeof WITHDRAWAL_STATUSES)[number],
  { where: string; final: boolean; tone: string }
> = {
  REQUEST: { where: 'requested', final: false, tone: 'progress' },
  VERIFY: { where: 'checks', final: false, tone: 'progress' },
  REVIEW: { where: 'checks', final: false, tone: 'progress' },
  MANUAL: { where: 'checks', final: false, tone: 'attention' },
  DMOVE: { where: 'checks', final: false, tone: 'attention' },
  FVERIFY: { where: 'checks', final: false, tone: 'attention' },
  LOCKED: { where: 'checks', final: false, tone: 'attention' },
  PEND: { where: 'processing', final: false, tone: 'progress' },
  PROCES: { where: 'processing', final: false, tone: 'progress' },
  EXTPEND: { where: 'broadcast', final: false, tone: 'progress' },
  DONE: { where: 'all-done', final: true, tone: 'success' },
  BCODE: { where: 'exit:Deposit code issued', final: true, tone: 'success' },
  CANCELPEND: { where: 'exit:Cancelling', final: false, tone: 'attention' },
  CANCEL: { where: 'exit:Cancelled', final: true, tone: 'failure' },
  FAIL: { where: 'exit:Failed on chain', final: false, tone: 'failure' },
  INVALID: { where: 'exit:Invalid', final: true, tone: 'failure' },
  REJECT: { where: 'exit:Rejected', final: true, tone: 'failure' },
};

const depositExpectations: Record<(typeof DEPOSIT_STATUSES)[number], { where: string; final: boolean; tone: string }> =
  {
    PEND: { where: 'detected', final: false, tone: 'progress' },
    TRACK: { where: 'confirming', final: false, tone: 'progress' },
    REVIEW: { where: 'crediting', final: false, tone: 'attention' },
    MANUAL: { where: 'crediting', final: false, tone: 'attention' },
    DEP_CREDITED: { where: 'done', final: false, tone: 'progress' },
    DONE: { where: 'all-done', final: true, tone: 'success' },
    BLOCKED: { where: 'exit:Refused', final: true, tone: 'failure' },
    INVALID: { where: 'exit:Invalid', final: true, tone: 'failure' },
  };

const pushExpectations: Record<(typeof PUSH_STATUSES)[number], { where: string; final: boolean; tone: string }> = {
  CREATING: { where: 'created', final: false, tone: 'progress' },
  PENDING: { where: 'awaiting', final: false, tone: 'progress' },
  RECEIVING: { where: 'receiving', final: false, tone: 'progress' },
  RECEIVED: { where: 'all-done', final: true, tone: 'success' },
  CANCELLING: { where: 'exit:Cancelling', final: false, tone: 'attention' },
  CANCELLED: { where: 'exit:Cancelled', final: true, tone: 'failure' },
  REFUSING: { where: 'exit:Being refused', final: false, tone: 'attention' },
  REFUSED: { where: 'exit:Refused', final: true, tone: 'failure' },
};

/** Renders the timeline and reads back, from the DOM, where it says the movement is. */
const whereRendered = (timeline: Timeline): string => {
  const { unmount } = render(<StatusTimeline timeline={timeline} label="Status" />);
  const region = screen.getByRole('region', { name: 'Status' });
  const items = within(region).getAllByRole('listitem');
  const current = items.filter((li) => li.getAttribute('aria-current') === 'step');
  const exit = items.find((li) => li.getAttribute('data-stage') === 'exit');
  const allDone = items.every((li) => li.getAttribute('data-state') === 'done');
  let where: string;
  // The stage's mark is an SVG (no text): the label follows a space.
  if (exit) where = `exit:${exit.textContent?.replace(/^\s+/, '').replace(/ \(.*\)$/, '')}`;
  else if (allDone) where = 'all-done';
  else {
    expect(current).toHaveLength(1);
    where = current[0]!.getAttribute('data-stage') ?? '';
  }
  // Every rendering keeps the platform code under Details (not in the sentence) and a next step in words.
  expect(within(region).getByTestId('timeline-headline').textContent).not.toContain(`(${timeline.status})`);
  expect(within(region).getByTestId('timeline-status-code').textContent).toBe(timeline.status || 'none');
  expect(within(region).getByTestId('timeline-next').textContent?.length).toBeGreaterThan(10);
  unmount();
  return where;
};

describe('withdrawal status timeline', () => {
  it.each(WITHDRAWAL_STATUSES)('%s is placed on the right stage in plain words', (status) => {
    const timeline = withdrawalTimeline({ status, failReason: 'address flagged', txid: '0xabc' });
    const expected = withdrawalExpectations[status];
    expect(whereRendered(timeline)).toBe(expected.where);
    expect(timeline.final).toBe(expected.final);
    expect(timeline.tone).toBe(expected.tone);
    expect(timeline.headline).not.toMatch(/^[A-Z_]+$/);
  });

  it('covers every status of the spec and keeps the happy path in order', () => {
    expect(Object.keys(withdrawalExpectations).sort()).toEqual([...WITHDRAWAL_STATUSES].sort());
    expect(WITHDRAWAL_STEPS.map((s) => s.key)).toEqual(['requested', 'checks', 'processing', 'broadcast', 'done']);
  });

  it('shows the fail reason of a cancelled withdrawal', () => {
    expect(withdrawalTimeline({ status: 'CANCEL', failReason: 'Address risk' }).headline).toBe(
      'Cancelled: Address risk',
    );
    expect(withdrawalTimeline({ status: 'CANCEL' }).headline).toBe('Cancelled');
  });

  it('offers cancel only before funds are handed to the chain', () => {
    expect(isWithdrawalCancellable('REQUEST')).toBe(true);
    expect(isWithdrawalCancellable('REVIEW')).toBe(true);
    for (const s of ['PEND', 'PROCES', 'EXTPEND', 'DONE', 'CANCEL', 'CANCELPEND', 'FAIL', 'LOCKED', 'BCODE']) {
      expect(isWithdrawalCancellable(s), s).toBe(false);
    }
  });

  it('treats an unknown status as in progress, never as done', () => {
    const t = withdrawalTimeline({ status: 'SPLITPEND' });
    expect(t.tone).toBe('unknown');
    expect(t.final).toBe(false);
    expect(t.headline).toContain('SPLITPEND');
    expect(t.stages.every((s) => s.state === 'upcoming')).toBe(true);
  });
});

describe('deposit status timeline', () => {
  it.each(DEPOSIT_STATUSES)('%s is placed on the right stage in plain words', (status) => {
    const timeline = depositTimeline({ status }, 12);
    const expected = depositExpectations[status];
    expect(whereRendered(timeline)).toBe(expected.where);
    expect(timeline.final).toBe(expected.final);
    expect(timeline.tone).toBe(expected.tone);
  });

  it('covers every status of the spec and names the confirmations needed', () => {
    expect(Object.keys(depositExpectations).sort()).toEqual([...DEPOSIT_STATUSES].sort());
    expect(DEPOSIT_STEPS).toHaveLength(4);
    expect(depositTimeline({ status: 'TRACK' }, 12).next).toContain('12 network confirmations');
  });

  it('treats an unknown status as in progress', () => {
    const t = depositTimeline({ status: 'FINAL' });
    expect(t.tone).toBe('unknown');
    expect(t.final).toBe(false);
  });
});

describe('UID transfer status timeline', () => {
  it.each(PUSH_STATUSES)('%s is placed on the right stage in plain words', (status) => {
    const timeline = pushTimeline({ status });
    const expected = pushExpectations[status];
    expect(whereRendered(timeline)).toBe(expected.where);
    expect(timeline.final).toBe(expected.final);
    expect(timeline.tone).toBe(expected.tone);
  });

  it('covers every status of the spec and shows the pending reason', () => {
    expect(Object.keys(pushExpectations).sort()).toEqual([...PUSH_STATUSES].sort());
    expect(PUSH_STEPS).toHaveLength(4);
    expect(pushTimeline({ status: 'PENDING', message: 'receiver must accept' }).headline).toContain(
      'receiver must accept',
    );
  });
});
