export * from './webhooks.schemas.ts';
export * from './webhooks.routes.ts';
