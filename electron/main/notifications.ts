/**
 * OS notifications in Electron: the core decides what to tell (core/notifications), this
 * shows it with Electron's Notification; clicking one brings the window to the front.
 */
import { type BrowserWindow, Notification } from 'electron';
import type { OsNotificationCapability } from '../../core/notifications/notifier';

export const createElectronNotifications = (window: () => BrowserWindow | undefined): OsNotificationCapability => {
  if (!Notification.isSupported()) {
    console.warn('OS notifications off: this system does not support them.');
    return { showOsNotification: () => {}, unavailableReason: 'This system does not support OS notifications.' };
  }
  // Held until closed or clicked: a notification that is garbage-collected loses its click handler.
  const shown = new Set<Notification>();
  return {
    showOsNotification: ({ title, body }) => {
      try {
        const notification = new Notification({ title, body });
        shown.add(notification);
        const forget = () => shown.delete(notification);
        notification.on('click', () => {
          forget();
          const win = window();
          if (!win) return;
          if (win.isMinimized()) win.restore();
          win.show();
          win.focus();
        });
        notification.on('close', forget);
        notification.on('failed', (_event, error) => {
          forget();
          console.warn(`OS notification failed: ${error}`);
        });
        notification.show();
      } catch (error) {
        console.warn('OS notification failed', error);
      }
    },
  };
};
