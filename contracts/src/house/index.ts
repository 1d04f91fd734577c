export * from './house.routes.ts';
