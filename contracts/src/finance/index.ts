export * from './finance.routes.ts';
export * from './finance.rules.ts';
export * from './finance.schemas.ts';
export * from './money.ts';
