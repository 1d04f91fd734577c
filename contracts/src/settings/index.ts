export * from './settings.schemas.ts';
export * from './settings.routes.ts';
export * from './web-manifest.ts';
