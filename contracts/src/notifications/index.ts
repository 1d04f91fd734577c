export * from './notifications.schemas.ts';
export * from './notifications.routes.ts';
export * from './notifications.audience.ts';
