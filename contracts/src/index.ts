export * from './levels.ts';
export * from './permissions.ts';
export * from './auth.ts';
export * from './admin.ts';
export * from './settings.ts';
export * from './legacy-api.ts';
export * from './access.ts';
