/**
 * First run: the sandbox said across the whole window (paper money, nothing real), and — for the
 * administrator — the set-up checklist: connect a live profile and its key, add operators, set the
 * policies (with the defaults we suggest before the first real withdrawal). Each item is done when
 * the desk says so (not when clicked); the list can be put away once read.
 */

import { useActiveProfile } from '../lib/activeProfile';
import { useDeskQuery } from '../lib/desk';
import { formatMoney } from '../lib/format';
import { goTo } from '../lib/navigation';
import { usePrefs } from '../lib/prefs';
import { Button } from '../ui';
import { Circle, CircleCheck } from '../ui/icons';
import './SetupChecklist.css';

/** Across the top of every screen while the active profile is the built-in sandbox. */
export const SandboxBanner = () => {
  const profile = useActiveProfile();
  if (profile?.kind !== 'sandbox') return null;
  return (
    <div className="sandbox-banner" role="note" data-testid="sandbox-banner">
      <strong>Sandbox: paper money.</strong> Nothing here is real and nothing leaves this computer. To work with real
      funds, connect a live profile in Settings → Profiles.
    </div>
  );
};

interface Step {
  readonly id: string;
  readonly title: string;
  readonly detail: string;
  readonly done: boolean;
}

export const SetupChecklist = () => {
  const dismissed = usePrefs((s) => s.setupChecklistDismissed);
  const session = useDeskQuery(['operators.current', {}]);
  const admin = session.data?.operator?.role === 'admin';
  const profiles = useDeskQuery(['profiles.list', {}], { enabled: admin && !dismissed });
  const operators = useDeskQuery(['operators.list', {}], { enabled: admin && !dismissed });
  const policy = useDeskQuery(['policies.get', {}], { enabled: admin && !dismissed });
  if (!admin || dismissed || !profiles.data || !operators.data || !policy.data) return null;
  const steps: Step[] = [
    {
      id: 'profile',
      title: 'Connect a live profile and its API key',
      detail: 'Settings → Profiles: add the live (or testnet) profile and store its key in the OS keychain.',
      done: profiles.data.some((p) => p.kind !== 'sandbox' && p.keyMask !== undefined),
    },
    {
      id: 'operators',
      title: 'Add the operators',
      detail: 'Settings → Operators: a maker prepares movements, an approver approves them, a viewer reads.',
      done: operators.data.length > 1,
    },
    {
      id: 'policies',
      title: 'Set the policies before the first real withdrawal',
      detail: `Settings → Policies. We suggest: a limit per withdrawal and per day, approvals above ${formatMoney('10000', 'USDT')} and for every new destination, the allowlist on.`,
      done: policy.data.updatedAt !== undefined,
    },
  ];
  if (steps.every((s) => s.done)) return null;
  return (
    <section className="setup-checklist card" aria-labelledby="setup-checklist-title" data-testid="setup-checklist">
      <div className="card-header">
        <h2 id="setup-checklist-title">Set up this desk</h2>
        <Button size="sm" variant="ghost" onClick={() => usePrefs.getState().set({ setupChecklistDismissed: true })}>
          Hide this list
        </Button>
      </div>
      <ol className="setup-steps">
        {steps.map((step) => {
          const Mark = step.done ? CircleCheck : Circle;
          return (
            <li key={step.id} data-testid={`setup-step-${step.id}`} data-done={step.done}>
              <Mark className={`icon ${step.done ? 'setup-done' : ''}`} aria-hidden="true" size={16} />
              <div>
                <strong>{step.title}</strong>
                <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
                <div className="muted">{step.detail}</div>
              </div>
              {step.done ? null : (
                <Button size="sm" onClick={() => goTo('settings')}>
                  Open Settings
                </Button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
};
