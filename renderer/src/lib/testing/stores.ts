/**
 * Every zustand store the app creates, with its state at creation, so that the component tests can
 * put them all back: a test file starts with the stores as a freshly opened window has them,
 * whatever the files before it in the same worker did (setup.ts). Filled by the `zustand` mock of
 * setup.ts; a module of its own so that the mock and the set-up share one list across test files.
 */
import type { StoreApi } from 'zustand';

const created: StoreApi<unknown>[] = [];

export const trackStore = <S extends StoreApi<unknown>>(store: S): S => {
  created.push(store);
  return store;
};

/** Puts every store created so far back to its initial state (its actions included). */
export const resetStores = (): void => {
  for (const store of created) store.setState(store.getInitialState(), true);
};
