export * from './notifications.schemas.ts';
export * from './notifications.routes.ts';
