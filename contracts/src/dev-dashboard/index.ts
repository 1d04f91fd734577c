export * from './dev-dashboard.routes.ts';
export * from './dev-dashboard.schemas.ts';
