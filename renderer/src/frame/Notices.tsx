import { useEffect } from 'react';
import { goTo } from '../lib/navigation';
import { type Notice, TOAST_MS, useNotices } from '../lib/notify';
import { X } from '../ui/icons';
import './Notices.css';

/** Opens what a notice is about: its screen with the record (tab, id) it names. */
export const openNotice = (notice: Notice): void => {
  if (notice.screen) goTo(notice.screen, notice.params);
  useNotices.getState().markRead(notice.id);
  useNotices.getState().dismiss(notice.id);
};

/**
 * Toasts in a polite live region in the bottom-left corner (over the sidebar's foot and the left
 * of the lists — never over the trade ticket or the orders' Amend/Cancel column on the right). Each
 * goes after its tone's time; the notification centre keeps them all.
 */
export const Notices = () => {
  const notices = useNotices((s) => s.notices);
  const dismiss = useNotices((s) => s.dismiss);
  useEffect(() => {
    const timers = notices.map((n) => setTimeout(() => dismiss(n.id), TOAST_MS[n.tone]));
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [notices, dismiss]);
  return (
    <section className="notices" aria-label="Notifications" aria-live="polite" data-testid="notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`toast toast-${notice.tone}`} data-testid="notice" data-tone={notice.tone}>
          <div className="toast-body">
            <div className="toast-title">{notice.title}</div>
            {notice.message ? <div className="toast-text">{notice.message}</div> : null}
            {notice.screen ? (
              <button type="button" className="link-button" onClick={() => openNotice(notice)}>
                Open
              </button>
            ) : null}
          </div>
          <button
            type="button"
            className="toast-close"
            aria-label={`Dismiss: ${notice.title}`}
            onClick={() => dismiss(notice.id)}
          >
            <X aria-hidden="true" focusable="false" size={14} />
          </button>
        </div>
      ))}
    </section>
  );
};
