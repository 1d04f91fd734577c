export * from './recipes.routes.ts';
