export * from './dev-dashboard.routes.ts';
