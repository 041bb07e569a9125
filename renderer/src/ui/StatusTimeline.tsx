/**
 * A status timeline in plain words: the stages of a withdrawal, deposit or UID transfer, where it is
 * now and what happens next. The platform code is under Details, for support conversations.
 */

import type { ReactNode } from 'react';
import type { StageState, Timeline } from '../../../shared/platform/timelines';
import { Circle, CircleCheck, CircleDot, CircleMinus, CircleX, type LucideIcon } from './icons';
import './StatusTimeline.css';

/** SVG marks (no font glyph needed); hidden from assistive technology, the state is said in words. */
const MARK: Record<StageState, LucideIcon> = {
  done: CircleCheck,
  current: CircleDot,
  upcoming: Circle,
  failed: CircleX,
  skipped: CircleMinus,
};

const STATE_WORDS: Record<StageState, string> = {
  done: 'completed',
  current: 'current step',
  upcoming: 'not reached yet',
  failed: 'failed',
  skipped: 'skipped',
};

export interface StatusTimelineProps {
  readonly timeline: Timeline;
  /** Accessible name of the timeline, e.g. "Withdrawal w123 status". */
  readonly label: string;
  /** Extra content under the "next" line (a Cancel button, a txid link…). */
  readonly children?: ReactNode;
}

export function StatusTimeline({ timeline, label, children }: StatusTimelineProps) {
  return (
    <section className={`status-timeline tone-${timeline.tone}`} aria-label={label} data-testid="status-timeline">
      <p className="status-timeline-headline" data-testid="timeline-headline" data-status={timeline.status}>
        <strong>{timeline.headline}</strong>
      </p>
      <ol className="status-timeline-stages">
        {timeline.stages.map((stage) => (
          <li
            key={stage.key}
            className={`stage stage-${stage.state}`}
            data-stage={stage.key}
            data-state={stage.state}
            aria-current={stage.state === 'current' ? 'step' : undefined}
          >
            {(() => {
              const Mark = MARK[stage.state];
              return <Mark className="icon stage-mark" aria-hidden="true" focusable="false" size={14} />;
            })()} {stage.label}
            <span className="sr-only"> ({STATE_WORDS[stage.state]})</span>
          </li>
        ))}
      </ol>
      <p className="status-timeline-next" data-testid="timeline-next">
        {timeline.next}
      </p>
      {children}
      {/* The platform's own code, for a support conversation: folded away, not in the sentence. */}
      <details className="status-details">
        <summary>Details</summary>
        Platform status <code data-testid="timeline-status-code">{timeline.status || 'none'}</code>
      </details>
    </section>
  );
}
