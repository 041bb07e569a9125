/**
 * The IPC channels between main and the app window's preload. The window's calls and the core's
 * events do not use any of them: they travel on a MessagePort straight between the window and the
 * core's process (electron/main/windowPorts.ts). These only set that port up and carry what main
 * itself has to say.
 */
/** Preload → main: "give this document its port to the core" (on every load). */
export const CONNECT_CHANNEL = 'desk:connect';
/** Main → preload: the port (transferred with the message), after a connect or a core restart. */
export const PORT_CHANNEL = 'desk:port';
/** Main → preload: the core's process stopped; calls on the old port will not be answered. */
export const CORE_STOPPED_CHANNEL = 'desk:core-stopped';
/** Main → preload: events main emits itself (the supervisor's notices), as a batch. */
export const EVENTS_CHANNEL = 'desk:events';
/**
 * The trusted confirmation window's one channel (electron/preload/confirm.ts → confirmWindow.ts):
 * main takes an answer on it only from that window's web contents.
 */
export const CONFIRM_ANSWER_CHANNEL = 'desk-confirm:answer';
