/**
 * The platform publishes the fee rates but not whether the fee is added to the amount or taken out
 * of it (docs/funding.md, "Fee model"): the sandbox adds it. Outside the sandbox the recipient's and
 * the balance's figures are therefore estimates, and the person is told so before sending.
 */
import { useActiveProfile } from '../../lib/activeProfile';

export const FeeEstimateNote = () => {
  const profile = useActiveProfile();
  if (profile === undefined || profile.kind === 'sandbox') return null;
  return (
    <p className="muted small" data-testid="fee-estimate-note">
      Fee, “recipient gets” and “taken from balance” are estimates: the platform does not say whether the fee is added
      to the amount or taken out of it. The withdrawal’s record shows the fee actually charged.
    </p>
  );
};
