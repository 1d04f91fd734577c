export * from './house.rules.ts';
export * from './house.schemas.ts';
export * from './house.routes.ts';
export * from './shopping.ts';
