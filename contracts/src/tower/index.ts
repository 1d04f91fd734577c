export * from './tower.routes.ts';
