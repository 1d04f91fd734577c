export * from './fivetools.schemas.ts';
export * from './fivetools.routes.ts';
