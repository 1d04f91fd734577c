export * from './todo.schemas.ts';
export * from './todo.routes.ts';
