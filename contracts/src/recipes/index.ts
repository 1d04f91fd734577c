export * from './recipes.routes.ts';
export * from './recipes.schemas.ts';
export * from './quantities.ts';
export * from './units.ts';
export * from './jsonld.ts';
