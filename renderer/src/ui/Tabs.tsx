import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import './Tabs.css';

export interface TabItem<V extends string> {
  readonly id: V;
  readonly label: ReactNode;
  readonly disabled?: boolean;
}

export interface TabsProps<V extends string> {
  readonly label: string;
  readonly tabs: readonly TabItem<V>[];
  readonly value: V;
  readonly onChange: (value: V) => void;
  /** The selected tab's panel. */
  readonly children?: ReactNode;
}

/** WAI-ARIA tabs: arrow keys move between tabs, Home/End jump, the panel is labelled by its tab. */
export const Tabs = <V extends string>({ label, tabs, value, onChange, children }: TabsProps<V>) => {
  const base = useId();
  const refs = useRef(new Map<V, HTMLButtonElement>());
  const enabled = tabs.filter((tab) => !tab.disabled);
  const onKeyDown = (event: KeyboardEvent) => {
    const index = enabled.findIndex((tab) => tab.id === value);
    let next: TabItem<V> | undefined;
    if (event.key === 'ArrowRight') next = enabled[(index + 1) % enabled.length];
    else if (event.key === 'ArrowLeft') next = enabled[(index - 1 + enabled.length) % enabled.length];
    else if (event.key === 'Home') next = enabled[0];
    else if (event.key === 'End') next = enabled[enabled.length - 1];
    if (next === undefined) return;
    event.preventDefault();
    onChange(next.id);
    refs.current.get(next.id)?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) refs.current.set(tab.id, element);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.id}`}
            aria-selected={tab.id === value}
            aria-controls={`${base}-panel`}
            tabIndex={tab.id === value ? 0 : -1}
            disabled={tab.disabled}
            className="tab"
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {children !== undefined ? (
        <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${value}`} className="tab-panel">
          {children}
        </div>
      ) : null}
    </div>
  );
};
