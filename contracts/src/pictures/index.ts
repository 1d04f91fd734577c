export * from './pictures.schemas.ts';
export * from './pictures.routes.ts';
export * from './capture-date.ts';
export * from './social.rules.ts';
export * from './social.schemas.ts';
export * from './search.schemas.ts';
export * from './resumable.ts';
