export * from './storage.ts';
export { createLocalStorage, STALE_TEMP_MS } from './local-storage.ts';
