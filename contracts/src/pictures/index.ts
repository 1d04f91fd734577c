export * from './pictures.routes.ts';
