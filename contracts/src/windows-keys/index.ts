export * from './windows-keys.routes.ts';
