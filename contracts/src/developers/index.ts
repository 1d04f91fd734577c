export * from './developers.rules.ts';
export * from './developers.routes.ts';
