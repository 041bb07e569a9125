import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorInit } from './apiError';

const base: ApiErrorInit = {
  kind: 'platform',
  status: 400,
  label: 'BALANCE_NOT_ENOUGH',
  message: 'Not enough balance',
  requestId: 'td-1',
  method: 'POST',
  path: '/withdrawals',
};

describe('ApiError → IPC: delivery crosses with every error', () => {
  it('a refusal and an unreachable platform: not_sent', () => {
    expect(new ApiError(base).toIpcError()).toMatchObject({ code: 'PLATFORM', delivery: 'not_sent' });
    expect(
      new ApiError({ ...base, kind: 'unreachable', status: 0, label: 'NETWORK_UNREACHABLE' }).toIpcError(),
    ).toMatchObject({ code: 'NETWORK', delivery: 'not_sent' });
  });

  it('a cut connection or a 5xx on a write: unknown', () => {
    expect(
      new ApiError({ ...base, kind: 'interrupted', status: 0, label: 'NETWORK_INTERRUPTED' }).toIpcError(),
    ).toMatchObject({ code: 'NETWORK', delivery: 'unknown' });
    expect(new ApiError({ ...base, status: 502, label: 'SERVER_ERROR' }).toIpcError()).toMatchObject({
      code: 'PLATFORM',
      delivery: 'unknown',
    });
  });

  it('an unreadable 2xx answer to a write is executed, and does not read as a refusal', () => {
    const ipc = new ApiError({
      ...base,
      kind: 'invalid-response',
      status: 200,
      label: 'INVALID_RESPONSE',
    }).toIpcError();
    expect(ipc).toMatchObject({ label: 'INVALID_RESPONSE', delivery: 'executed' });
    expect(ipc.message).toMatch(/accepted the request.*most likely carried out/);
  });

  it('a read moves nothing, whatever happened to it', () => {
    const read = { ...base, method: 'GET', path: '/wallet/withdrawals' };
    expect(
      new ApiError({ ...read, kind: 'interrupted', status: 0, label: 'NETWORK_INTERRUPTED' }).toIpcError().delivery,
    ).toBe('not_sent');
    expect(
      new ApiError({ ...read, kind: 'invalid-response', status: 200, label: 'INVALID_RESPONSE' }).toIpcError(),
    ).toMatchObject({ delivery: 'not_sent', message: expect.stringMatching(/does not understand/) });
  });
});
