import { describe, expect, it, vi } from 'vitest';
import { createEmitter } from './events';

describe('createEmitter', () => {
  it('sends events whose payload matches the contract', () => {
    const send = vi.fn();
    const emit = createEmitter(send);
    emit('app.notice', { level: 'info', message: 'Hello' });
    expect(send).toHaveBeenCalledWith('app.notice', { level: 'info', message: 'Hello' });
  });

  it('drops (and reports) a payload that breaks the contract instead of sending it', () => {
    const send = vi.fn();
    const logError = vi.fn();
    const emit = createEmitter(send, logError);
    emit('app.notice', { level: 'loud', message: 'Hello' } as never);
    emit('no.suchEvent' as never, {} as never);
    expect(send).not.toHaveBeenCalled();
    expect(logError).toHaveBeenCalledTimes(2);
  });
});
