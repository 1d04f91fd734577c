export * from './live.schemas.ts';
export * from './live.routes.ts';
