export * from './about.routes.ts';
