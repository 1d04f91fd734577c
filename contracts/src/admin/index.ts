export * from './admin.schemas.ts';
export * from './admin.routes.ts';
