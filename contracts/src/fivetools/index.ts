export * from './fivetools.routes.ts';
