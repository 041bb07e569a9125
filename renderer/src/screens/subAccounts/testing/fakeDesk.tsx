/** Moved to lib/testing/fakeDesk.tsx (shared by every screen's component tests); kept for existing imports. */
export { type Answer, type FakeDesk, installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
