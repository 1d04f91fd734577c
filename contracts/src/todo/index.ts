export * from './todo.routes.ts';
