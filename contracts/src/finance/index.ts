export * from './finance.routes.ts';
