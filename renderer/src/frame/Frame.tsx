import { type RefObject, Suspense, useEffect, useRef } from 'react';
import { useDeskQuery } from '../lib/desk';
import { useInFlight } from '../lib/inFlight';
import { useLock } from '../lib/lock';
import { goTo, useNavigation } from '../lib/navigation';
import { usePrefs } from '../lib/prefs';
import { Button, Loading } from '../ui';
import { PanelLeftClose, PanelLeftOpen } from '../ui/icons';
import { AppNotices } from './AppNotices';
import { AuditIntegrityBanner } from './AuditIntegrityBanner';
import { FundingNotifier } from './FundingNotifier';
import { IdleLockWatcher, LockScreen } from './IdleLock';
import { Nav } from './Nav';
import { Notices } from './Notices';
import { NotificationCentre } from './NotificationCentre';
import { PrefsMigration } from './PrefsMigration';
import { ProfileSwitcher } from './ProfileSwitcher';
import { SandboxBanner, SetupChecklist } from './SetupChecklist';
import { SignedInOperator } from './SignedInOperator';
import { preloadScreens, SCREENS } from './screens';
import { useSidebarCollapsed } from './sidebar';
import { TeamBanner } from './TeamBanner';
import { TradeNotifier } from './TradeNotifier';
import './Frame.css';

/** Ctrl/⌘+1…8 open screens, Ctrl/⌘+Shift+L locks. Bound once for the whole window. */
const useGlobalShortcuts = () => {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (useLock.getState().locked) return;
      const entry = SCREENS.find((s) => s.key === event.key);
      if (entry && !event.shiftKey) {
        event.preventDefault();
        goTo(entry.id);
      } else if (event.shiftKey && event.key.toLowerCase() === 'l') {
        event.preventDefault();
        void useLock.getState().lock('manual');
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
};

/** Theme and up/down colours live on <html> so every CSS rule can follow them. */
const usePrefsOnDocument = () => {
  const theme = usePrefs((s) => s.theme);
  const upColour = usePrefs((s) => s.upColour);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.dataset.up = upColour;
    document.documentElement.style.colorScheme = theme;
  }, [theme, upColour]);
};

/**
 * The readiness marker tests and tools wait for: set once the bridge has answered, so anything
 * waiting for it knows IPC works (never a sleep).
 */
const useReadinessMarker = () => {
  const info = useDeskQuery(['app.info', {}], { staleTime: Number.POSITIVE_INFINITY, retry: false });
  useEffect(() => {
    if (info.isSuccess) {
      document.documentElement.dataset.deskReady = 'true';
      document.documentElement.dataset.deskShell = info.data.shell;
    } else if (info.isError) {
      document.documentElement.dataset.deskReady = 'failed';
    }
  }, [info.isSuccess, info.isError, info.data]);
  return info;
};

/**
 * Moves focus to the screen's title once the screen is on the page, so keyboard and screen-reader
 * users land on it. Inside the screen's Suspense boundary, it mounts together with the screen's own
 * content (after its code has loaded), once per screen opened.
 */
const FocusTitle = ({ main, skip }: { readonly main: RefObject<HTMLElement | null>; readonly skip: boolean }) => {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per screen opened (its key).
  useEffect(() => {
    if (skip) return;
    const title = main.current?.querySelector<HTMLElement>('[data-screen-title]');
    (title ?? main.current)?.focus();
  }, []);
  return null;
};

/** How long after the app is ready the other screens' code is fetched: the first screen paints first. */
const PRELOAD_AFTER_READY_MS = 2_000;

const usePreloadScreens = (ready: boolean) => {
  useEffect(() => {
    if (!ready) return undefined;
    const timer = setTimeout(preloadScreens, PRELOAD_AFTER_READY_MS);
    return () => clearTimeout(timer);
  }, [ready]);
};

const BusyIndicator = () => {
  const pending = useInFlight((s) => s.pending.length);
  return (
    <div className="busy" role="status" aria-live="polite" data-testid="busy">
      {pending > 0 ? (
        <>
          <span className="spinner spinner-inline" aria-hidden="true" />
          <span>{pending === 1 ? 'Working…' : `${pending} operations running…`}</span>
        </>
      ) : null}
    </div>
  );
};

export const Frame = () => {
  useGlobalShortcuts();
  usePrefsOnDocument();
  const info = useReadinessMarker();
  usePreloadScreens(info.isSuccess);
  const screen = useNavigation((s) => s.screen);
  const locked = useLock((s) => s.locked);
  const main = useRef<HTMLElement>(null);
  const entry = SCREENS.find((s) => s.id === screen) ?? SCREENS[0]!;
  const Screen = entry.component;
  const sidebar = useSidebarCollapsed();

  // The first screen keeps the document's own focus; every later one moves it (FocusTitle).
  const opened = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: counts screen changes by design.
  useEffect(() => {
    opened.current += 1;
  }, [screen]);

  return (
    <>
      <div
        className="app"
        data-testid="app-frame"
        data-sidebar={sidebar.collapsed ? 'collapsed' : 'expanded'}
        inert={locked || undefined}
      >
        <aside className="sidebar" data-testid="sidebar">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              TD
            </span>
            <span className="brand-name">Treasury Desk</span>
            <button
              type="button"
              className="sidebar-toggle"
              data-testid="sidebar-toggle"
              aria-expanded={!sidebar.collapsed}
              aria-label={sidebar.collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}
              title={sidebar.collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'}
              onClick={sidebar.toggle}
            >
              {sidebar.collapsed ? (
                <PanelLeftOpen aria-hidden="true" focusable="false" size={16} />
              ) : (
                <PanelLeftClose aria-hidden="true" focusable="false" size={16} />
              )}
            </button>
          </div>
          <Nav />
          <div className="sidebar-footer" data-testid="app-version">
            {info.data ? `v${info.data.version} · ${info.data.shell === 'electron' ? 'Electron' : 'Chromium'}` : ''}
          </div>
        </aside>
        <div className="workspace">
          <header className="topbar">
            <ProfileSwitcher />
            <div className="topbar-spacer" />
            <BusyIndicator />
            <NotificationCentre />
            <SignedInOperator />
            <Button
              size="sm"
              variant="ghost"
              onClick={() => void useLock.getState().lock('manual')}
              data-testid="lock-now"
              aria-keyshortcuts="Control+Shift+L"
              title="Lock now (Ctrl+Shift+L)"
            >
              Lock
            </Button>
          </header>
          <SandboxBanner />
          <AuditIntegrityBanner />
          <TeamBanner />
          <main ref={main} className="screen" tabIndex={-1} data-testid={`screen-${entry.id}`} aria-label={entry.label}>
            {/* On the landing screen only: it is where a person starts, and it leaves the others' room. */}
            {entry.id === 'balances' ? <SetupChecklist /> : null}
            {/* Every screen but the first has its own chunk, loaded the first time it opens. */}
            <Suspense fallback={<Loading label={`Opening ${entry.label}…`} />}>
              <Screen />
              <FocusTitle key={entry.id} main={main} skip={opened.current === 0} />
            </Suspense>
          </main>
        </div>
      </div>
      <Notices />
      <FundingNotifier />
      <TradeNotifier />
      <AppNotices />
      <PrefsMigration />
      <IdleLockWatcher />
      <LockScreen />
    </>
  );
};
