/** The platform's request and response schemas (API v4), shared by main and the IPC contracts. */
export * from './common';
export * from './spot';
export * from './stream';
export * from './subAccounts';
export * from './wallet';
