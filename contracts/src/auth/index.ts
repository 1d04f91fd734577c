export * from './auth.rules.ts';
export * from './auth.schemas.ts';
export * from './auth.routes.ts';
