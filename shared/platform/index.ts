/** Pure facts about the platform shared by the sandbox and the app (no Node/DOM/Electron imports). */
export * from './labels';
export * from './limits';
export * from './statuses';
