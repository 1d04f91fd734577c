export * from './climbing.schemas.ts';
export * from './climbing.routes.ts';
