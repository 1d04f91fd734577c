export * from './plan.rules.ts';
export * from './plan.schemas.ts';
export * from './plan.routes.ts';
