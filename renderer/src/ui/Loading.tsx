import './Loading.css';
/** A busy indicator that screen readers announce once. */
export const Loading = ({
  label = 'Loading…',
  inline = false,
}: {
  readonly label?: string;
  readonly inline?: boolean;
}) => (
  <div className={inline ? 'loading loading-inline' : 'loading'} role="status" data-testid="loading">
    <span className="spinner" aria-hidden="true" />
    <span>{label}</span>
  </div>
);
