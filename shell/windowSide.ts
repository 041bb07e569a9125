/**
 * What the Chromium shell needs once its processes are starting: the core's supervisor, the bridge,
 * the shell's own pages and the contract's operation names (with zod's schemas behind them).
 * openShell (./shell.ts) loads this only after it has forked the sandbox and the core and launched
 * the browser, so that none of them waits for these modules to load and compile (issue 26).
 */
export { defaultDownloadsDir } from '../core/app/handlers';
export { reserveLoopbackPort } from '../core/host/loopbackPort';
export { CoreStartFailed, startRemoteCore } from '../core/host/remoteCore';
export { createSenderCheck } from '../core/ipc/dispatcher';
export { contract } from '../shared/contract';
export { operationNames } from '../shared/ipc/define';
export { installBridge } from './bridge';
export { CONFIRM_ORIGIN, createConfirmWindow } from './confirmWindow';
export { createShellOpenExternal } from './openExternal';
export { createShellNotifications } from './osNotifications';
export { createSaveWindow, SAVE_ORIGIN } from './saveWindow';
export { createSecretWindow, SECRET_ORIGIN } from './secretWindow';
export { SHELL_ORIGIN, SHELL_URL, serveRenderer } from './serve';
