import type { ReactNode } from 'react';
import './PageHeader.css';

/** The screen's title (the one h1, focused when the screen opens) and its actions. */
export const PageHeader = ({
  title,
  subtitle,
  actions,
}: {
  readonly title: string;
  readonly subtitle?: ReactNode;
  readonly actions?: ReactNode;
}) => (
  <header className="page-header">
    <div>
      <h1 tabIndex={-1} data-screen-title>
        {title}
      </h1>
      {subtitle ? <div className="page-subtitle">{subtitle}</div> : null}
    </div>
    {actions ? <div className="page-actions">{actions}</div> : null}
  </header>
);
