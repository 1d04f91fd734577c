export * from './todo.rules.ts';
export * from './todo.schemas.ts';
export * from './todo.routes.ts';
