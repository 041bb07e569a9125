/**
 * Reads queries again once per burst of events: several events about one action (an order's
 * answer, its stream update and the balance stream, within milliseconds of each other) refresh each
 * named query once, `delayMs` after the first, instead of once per event — and never twice at once.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

export const COALESCE_MS = 150;

export const useCoalescedRefresh = (delayMs = COALESCE_MS): ((names: readonly string[]) => void) => {
  const client = useQueryClient();
  const pending = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (names) => {
      for (const name of names) pending.current.add(name);
      if (timer.current !== undefined) return;
      timer.current = setTimeout(() => {
        timer.current = undefined;
        const due = [...pending.current];
        pending.current.clear();
        for (const name of due) void client.invalidateQueries({ queryKey: [name] }, { cancelRefetch: false });
      }, delayMs);
    },
    [client, delayMs],
  );
};
