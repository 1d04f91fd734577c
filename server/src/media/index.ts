export * from './storage.ts';
export { createLocalStorage } from './local-storage.ts';
