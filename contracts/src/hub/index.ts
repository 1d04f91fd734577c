export * from './hub.routes.ts';
