import type { ComponentPropsWithRef } from 'react';
import './Button.css';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  readonly variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  readonly size?: 'sm' | 'md';
  /** Shows progress and blocks further clicks (a second click must never send twice). */
  readonly busy?: boolean;
}

export const Button = ({
  variant = 'secondary',
  size = 'md',
  busy = false,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) => (
  <button
    {...rest}
    type={type}
    className={['btn', `btn-${variant}`, `btn-${size}`, className].filter(Boolean).join(' ')}
    disabled={disabled || busy}
    aria-busy={busy || undefined}
  >
    {busy ? <span className="spinner spinner-inline" aria-hidden="true" /> : null}
    {children}
  </button>
);
