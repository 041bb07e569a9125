/**
 * The one test sandbox harness (sandbox/testing/harness.ts), as the core's tests reach it: the layer
 * rules let a core test import the core's own test support (electron/core/testing/), not sandbox/.
 * Nothing is defined here.
 */
export * from '../../../sandbox/testing/harness';
