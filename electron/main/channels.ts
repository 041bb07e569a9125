/** IPC channel names: one per operation and one per event, so nothing generic exists. */
export const operationChannel = (operation: string): string => `desk:${operation}`;
export const eventChannel = (event: string): string => `desk-event:${event}`;
