/**
 * Whether control changes (operators, policies, profiles, keys, sub-accounts) wait for a second
 * administrator on this desk, and why — said plainly wherever they are made or approved
 * (Settings → Operators and Policies, Approvals). Main decides and words it (`approvals.fourEyes`).
 */
import type { FourEyes } from '../../../shared/contract/policies';
import { useDeskQuery } from '../lib/desk';

export function FourEyesNotice({ fourEyes }: { readonly fourEyes: FourEyes }) {
  return (
    <p
      className={`notice ${fourEyes.inForce ? 'notice-good' : 'notice-warn'}`}
      data-testid="four-eyes"
      data-in-force={fourEyes.inForce}
    >
      {fourEyes.reason}{' '}
      {`For ${fourEyes.operatorCoolingOffHours} h after an administrator creates an operator, changes their role or resets their passphrase, that operator may not approve what this administrator prepared.`}
    </p>
  );
}

/** The notice with main's current answer (nothing while it is read). */
export function FourEyesStatus() {
  const fourEyes = useDeskQuery(['approvals.fourEyes', {}]);
  return fourEyes.data ? <FourEyesNotice fourEyes={fourEyes.data} /> : null;
}
