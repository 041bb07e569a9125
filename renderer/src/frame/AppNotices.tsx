/** Notices main sends about the app itself ('app.notice'), shown like every other notice. */
import { useDeskEvent } from '../lib/desk';
import { notify } from '../lib/notify';

const TONE = { info: 'info', warning: 'warn', error: 'bad' } as const;

export const AppNotices = () => {
  useDeskEvent('app.notice', ({ level, message }) =>
    notify({ tone: TONE[level], title: message, sticky: level === 'error' }),
  );
  return null;
};
