/**
 * The sidebar collapses to its icons by itself on a narrow window (below 1200 px wide, e.g.
 * 1024×700), and the person can collapse or expand it at any width; that choice is remembered.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export const NARROW_QUERY = '(max-width: 1199px)';

interface SidebarState {
  /** 'auto' follows the window's width. */
  readonly choice: 'auto' | 'collapsed' | 'expanded';
  set(choice: SidebarState['choice']): void;
}

export const useSidebar = create<SidebarState>()(
  persist((set) => ({ choice: 'auto', set: (choice) => set({ choice }) }), {
    name: 'treasury-desk.sidebar',
    storage: createJSONStorage(() => localStorage),
    partialize: ({ choice }) => ({ choice }),
  }),
);

const narrowNow = () => typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;

/** Whether the sidebar is collapsed now, and the toggle. */
export const useSidebarCollapsed = (): { collapsed: boolean; toggle: () => void } => {
  const choice = useSidebar((s) => s.choice);
  const [narrow, setNarrow] = useState(narrowNow);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(NARROW_QUERY);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  const collapsed = choice === 'auto' ? narrow : choice === 'collapsed';
  return { collapsed, toggle: () => useSidebar.getState().set(collapsed ? 'expanded' : 'collapsed') };
};
