import { describe, expect, it } from 'vitest';
import { ERROR_LABELS } from '../../shared/platform/labels';
import { ApiError } from './apiError';
import { helpForLabel, LABELS } from './labels';

describe('label table', () => {
  it('explains every label of the groups the app uses (request, auth, wallet, spot, server) with advice', () => {
    const groups = ['request', 'authentication', 'wallet', 'spot', 'server'] as const;
    const missing = groups.flatMap((g) => ERROR_LABELS[g]).filter((label) => LABELS[label] === undefined);
    expect(missing).toEqual([]);
    for (const help of Object.values(LABELS)) {
      expect(help.explanation.length).toBeGreaterThan(10);
      expect(help.advice.length).toBeGreaterThan(5);
    }
    expect(helpForLabel('SOMETHING_NEW').advice).toMatch(/request id/);
  });

  it('advice names no highlighted field: main cannot know what a screen highlights', () => {
    const pointing = Object.entries(LABELS).filter(([, help]) => /highlight/i.test(help.advice));
    expect(pointing).toEqual([]);
    expect(helpForLabel('INVALID_PARAM_VALUE').advice).toBe('Check the values you entered and try again.');
  });
});

describe('ApiError', () => {
  const base = { message: 'm', requestId: 'td-1', method: 'POST', path: '/withdrawals' };
  it('says whether the platform may have acted', () => {
    expect(new ApiError({ ...base, kind: 'platform', status: 400, label: 'BALANCE_NOT_ENOUGH' }).delivery).toBe(
      'not-executed',
    );
    expect(new ApiError({ ...base, kind: 'platform', status: 429, label: 'TOO_MANY_REQUESTS' }).delivery).toBe(
      'not-executed',
    );
    expect(new ApiError({ ...base, kind: 'platform', status: 502, label: 'SERVER_ERROR' }).delivery).toBe('unknown');
    expect(new ApiError({ ...base, kind: 'interrupted', status: 0, label: 'NETWORK_INTERRUPTED' }).delivery).toBe(
      'unknown',
    );
    expect(new ApiError({ ...base, kind: 'unreachable', status: 0, label: 'NETWORK_UNREACHABLE' }).delivery).toBe(
      'not-executed',
    );
  });

  it('becomes an IPC error with the label, plain words, advice and the request id', () => {
    const ipc = new ApiError({ ...base, kind: 'platform', status: 400, label: 'ADDRESS_NOT_USED' }).toIpcError();
    expect(ipc).toMatchObject({ code: 'PLATFORM', label: 'ADDRESS_NOT_USED', requestId: 'td-1' });
    expect(ipc.advice).toMatch(/address book|website/);
    expect(
      new ApiError({ ...base, kind: 'unreachable', status: 0, label: 'NETWORK_UNREACHABLE' }).toIpcError().code,
    ).toBe('NETWORK');
    expect(new ApiError({ ...base, kind: 'unreachable', status: 0, label: 'NO_KEY' }).toIpcError().code).toBe(
      'PRECONDITION',
    );
  });
});
