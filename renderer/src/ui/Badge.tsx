import type { ReactNode } from 'react';
import './Badge.css';

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

export const Badge = ({
  tone = 'neutral',
  children,
  title,
  testId,
}: {
  readonly tone?: Tone;
  readonly children: ReactNode;
  readonly title?: string;
  readonly testId?: string;
}) => (
  <span className={`badge badge-${tone}`} title={title} data-testid={testId}>
    {children}
  </span>
);
