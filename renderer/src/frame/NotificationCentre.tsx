/**
 * The bell in the top bar: how many notices are unread (failures in red) and, when opened, the
 * history of every notice with its time; each opens its record. Escape or a click outside closes it.
 */

import { useEffect, useId, useRef, useState } from 'react';
import { formatTime } from '../lib/format';
import { useNotices } from '../lib/notify';
import { usePrefs } from '../lib/prefs';
import { Bell } from '../ui/icons';
import { openNotice } from './Notices';
import './NotificationCentre.css';

export const NotificationCentre = () => {
  const history = useNotices((s) => s.history);
  const unread = useNotices((s) => s.unread);
  const markRead = useNotices((s) => s.markRead);
  const clearHistory = useNotices((s) => s.clearHistory);
  const timeZone = usePrefs((s) => s.timeZone);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const unreadFailures = history.filter((n) => n.tone === 'bad' && unread.includes(n.id)).length;

  useEffect(() => {
    if (!open) return undefined;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return;
        setOpen(false);
        toggle.current?.focus();
      } else if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('mousedown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('mousedown', close);
    };
  }, [open]);

  return (
    <div className="notification-centre" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="bell"
        data-testid="notification-bell"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`Notifications${unread.length ? `, ${unread.length} unread` : ''}`}
        title="Notifications"
        onClick={() => setOpen((o) => !o)}
      >
        <Bell aria-hidden="true" focusable="false" size={16} />
        {unread.length > 0 ? (
          <span className={`bell-count${unreadFailures > 0 ? ' bell-count-bad' : ''}`} data-testid="notification-count">
            {unread.length}
          </span>
        ) : null}
      </button>
      {open ? (
        <section
          id={panelId}
          className="notification-panel"
          aria-label="Notification history"
          data-testid="notification-panel"
        >
          <header className="notification-panel-head">
            <strong>Notifications</strong>
            <span>
              <button type="button" className="link-button" onClick={() => markRead()} disabled={!unread.length}>
                Mark all read
              </button>{' '}
              <button type="button" className="link-button" onClick={clearHistory} disabled={!history.length}>
                Clear
              </button>
            </span>
          </header>
          {history.length === 0 ? <p className="notification-empty">No notifications yet.</p> : null}
          <ul className="notification-list">
            {history.map((n) => (
              <li
                key={n.id}
                className={`notification-item toast-${n.tone}${unread.includes(n.id) ? ' is-unread' : ''}`}
                data-testid="notification-item"
                data-tone={n.tone}
              >
                <div className="toast-title">{n.title}</div>
                {n.message ? <div className="toast-text">{n.message}</div> : null}
                <div className="notification-meta">
                  <time dateTime={new Date(n.at).toISOString()}>{formatTime(n.at, timeZone)}</time>
                  {n.screen ? (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        openNotice(n);
                        setOpen(false);
                      }}
                    >
                      Open
                    </button>
                  ) : (
                    <button type="button" className="link-button" onClick={() => markRead(n.id)}>
                      Mark read
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
};
