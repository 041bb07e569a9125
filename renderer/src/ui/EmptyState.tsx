import type { ReactNode } from 'react';
import './EmptyState.css';

export const EmptyState = ({
  title,
  children,
  action,
}: {
  readonly title: string;
  readonly children?: ReactNode;
  readonly action?: ReactNode;
}) => (
  <div className="empty-state" data-testid="empty-state">
    <div className="empty-title">{title}</div>
    {children ? <div className="empty-text">{children}</div> : null}
    {action ? <div className="empty-action">{action}</div> : null}
  </div>
);
