/** IPC channel names: one per operation and one per event, so nothing generic exists. */
export const operationChannel = (operation: string): string => `desk:${operation}`;
export const eventChannel = (event: string): string => `desk-event:${event}`;
/**
 * The trusted confirmation window's one channel (electron/preload/confirm.ts → confirmWindow.ts):
 * main takes an answer on it only from that window's web contents.
 */
export const CONFIRM_ANSWER_CHANNEL = 'desk-confirm:answer';
