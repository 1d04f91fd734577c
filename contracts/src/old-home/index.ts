export * from './old-home.routes.ts';
