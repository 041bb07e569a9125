import { useEffect, useState } from 'react';
import { durationWords } from './words';

/** How long an item still waits, counting down each second. */
export const ExpiresIn = ({ at, testId }: { readonly at: number; readonly testId?: string }) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at <= Date.now()) return undefined;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= at) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [at]);
  const left = at - now;
  return (
    <span role="timer" aria-live="off" data-testid={testId} data-left-ms={Math.max(0, left)}>
      {left > 0 ? `Expires in ${durationWords(left)}` : 'Expired (main settles it within 30 s)'}
    </span>
  );
};
