export * from './climbing.routes.ts';
