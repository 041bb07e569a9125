import { useQueryClient } from '@tanstack/react-query';
import type { KeyboardEvent } from 'react';
import { useDeskEvent, useDeskQuery } from '../lib/desk';
import { applyApproval } from '../lib/eventCache';
import { useNavigation } from '../lib/navigation';
import { SCREENS } from './screens';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

/** How many items wait in Approvals (0 while unknown, e.g. locked). */
const usePendingApprovals = (): number => {
  const client = useQueryClient();
  const pending = useDeskQuery(['approvals.list', { state: 'pending' }], { staleTime: 30_000 });
  useDeskEvent('approvals.changed', ({ approval }) => {
    if (approval) applyApproval(client, approval);
    void client.invalidateQueries({ queryKey: ['approvals.list'] });
  });
  return pending.data?.approvals.length ?? 0;
};

/** The sidebar: one button per screen; ↑/↓ move between entries, Ctrl/⌘+1…8 from anywhere. */
export const Nav = () => {
  const screen = useNavigation((s) => s.screen);
  const go = useNavigation((s) => s.go);
  const waiting = usePendingApprovals();
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = buttons[(index + (event.key === 'ArrowDown' ? 1 : -1) + buttons.length) % buttons.length];
    event.preventDefault();
    next?.focus();
  };
  return (
    <nav aria-label="Screens" className="nav">
      <ul onKeyDown={onKeyDown}>
        {SCREENS.map((entry) => (
          <li key={entry.id}>
            <button
              type="button"
              className="nav-entry"
              data-testid={`nav-${entry.id}`}
              aria-current={entry.id === screen ? 'page' : undefined}
              aria-keyshortcuts={`${isMac ? 'Meta' : 'Control'}+${entry.key}`}
              title={`${entry.label} (${isMac ? '⌘' : 'Ctrl+'}${entry.key})`}
              // The name stays when the sidebar is collapsed to its icons (the label is hidden then).
              aria-label={entry.label}
              // Approvals: the count of what waits is its description ("2 waiting").
              aria-describedby={entry.id === 'approvals' && waiting > 0 ? 'nav-approvals-count' : undefined}
              onClick={() => go(entry.id)}
            >
              <entry.icon className="nav-icon" aria-hidden="true" focusable="false" size={16} strokeWidth={1.75} />
              <span className="nav-label">{entry.label}</span>
              {entry.id === 'approvals' && waiting > 0 ? (
                <span id="nav-approvals-count" className="nav-count" data-testid="nav-approvals-count">
                  {waiting}
                  <span className="sr-only"> waiting</span>
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
};
