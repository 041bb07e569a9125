/**
 * Runs before every renderer test file (vitest.config.ts, `setupFiles`). The files of a worker share
 * one module graph and one happy-dom window (no per-file isolation: importing React, the UI kit and
 * the contract again for every file cost most of the renderer's test time), so what a file leaves in
 * the window is put back here, as a freshly opened window has it: nothing rendered, every zustand
 * store of the app at its initial state, empty localStorage and sessionStorage, real timers.
 *
 * A test file that replaces a module with `vi.mock` cannot share modules: the config runs such a
 * file in a project of its own, with isolation (vitest.config.ts).
 */
import { cleanup, configure } from '@testing-library/react';
import * as React from 'react';
import { vi } from 'vitest';
import type { StateCreator } from 'zustand';
import { resetStores, trackStore } from './stores';

// Every store the app creates is remembered with its initial state (zustand's own testing recipe).
vi.mock('zustand', async (importOriginal) => {
  const actual = await importOriginal<typeof import('zustand')>();
  const createTracked = (initializer: StateCreator<unknown>) => trackStore(actual.create(initializer));
  // Both of zustand's forms: create(initializer) and create<State>()(initializer).
  const create = (initializer?: StateCreator<unknown>) =>
    initializer === undefined ? createTracked : createTracked(initializer);
  return { ...actual, create };
});

// findBy… and waitFor wait for a condition, never a fixed time: a bound of 1 s (the library's
// default) failed on a loaded 2-core machine while a lazily loaded screen's code was still being
// transformed; 5 s only lengthens a failing test.
configure({ asyncUtilTimeout: 5_000 });

// React's development build records, for every element it creates (up to 10,000 a second), where in
// the code it was written: an Error with a captured stack and a console.createTask, so that a warning
// can point at the JSX line. The tests draw whole forms per keystroke and whole screens, and this was
// 7–17 % of the CPU of the form tests (measured on WithdrawForm, OrderTicket, TransferForm and
// KeyFormDialog, interleaved). Here every element counts as past that limit, so React takes its
// "unknown owner" path: the same elements, renders and warnings (with their component stacks),
// without the JSX line. The counter lives in React's internals; if a React version drops it, this
// does nothing.
const reactInternals = (React as unknown as Record<string, object | undefined>)
  .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (reactInternals !== undefined && 'recentlyCreatedOwnerStacks' in reactInternals) {
  Object.defineProperty(reactInternals, 'recentlyCreatedOwnerStacks', {
    get: () => Number.POSITIVE_INFINITY,
    set: () => {},
    configurable: true,
  });
}

// A file that left something mounted (a renderHook without cleanup) stops here: its components'
// effects and timers would otherwise run on into this file.
cleanup();
document.body.replaceChildren();
// The page's root carries the app's state too (theme, the readiness marker the frame sets once main
// answers): a file starts on a bare one, or its wait for the marker passes before its own app answered.
for (const { name } of [...document.documentElement.attributes]) document.documentElement.removeAttribute(name);
resetStores();
localStorage.clear();
sessionStorage.clear();
vi.useRealTimers();
