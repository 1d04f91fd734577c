export * from './windows-keys.schemas.ts';
export * from './windows-keys.routes.ts';
