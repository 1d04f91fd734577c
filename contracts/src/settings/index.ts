export * from './settings.schemas.ts';
export * from './settings.routes.ts';
