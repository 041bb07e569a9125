import type { DeskHandlers } from '../../../shared/contract';
import type { ServiceContext } from './context';

const APP_NAME = 'Treasury Desk';
const APP_VERSION = '0.1.0';

/** Handlers of the `app` area: liveness and facts about the running app. */
export const createAppHandlers = (ctx: ServiceContext): DeskHandlers['app'] => ({
  ping: async ({ text }) => ({ text, receivedAt: Date.now() }),
  info: async () => ({ name: APP_NAME, version: APP_VERSION, shell: ctx.shell, platform: process.platform }),
});
