import { useEffect } from 'react';
import { goTo } from '../lib/navigation';
import { useNotices } from '../lib/notify';

const AUTO_DISMISS_MS = 8000;

/** Toasts in a polite live region; sticky ones (failures, unknown outcomes) stay until dismissed. */
export const Notices = () => {
  const notices = useNotices((s) => s.notices);
  const dismiss = useNotices((s) => s.dismiss);
  useEffect(() => {
    const timers = notices.filter((n) => !n.sticky).map((n) => setTimeout(() => dismiss(n.id), AUTO_DISMISS_MS));
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [notices, dismiss]);
  return (
    <section className="notices" aria-label="Notifications" aria-live="polite" data-testid="notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`toast toast-${notice.tone}`} data-testid="notice">
          <div className="toast-body">
            <div className="toast-title">{notice.title}</div>
            {notice.message ? <div className="toast-text">{notice.message}</div> : null}
            {notice.screen ? (
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  if (notice.screen) goTo(notice.screen);
                  dismiss(notice.id);
                }}
              >
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
            ×
          </button>
        </div>
      ))}
    </section>
  );
};
