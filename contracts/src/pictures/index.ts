export * from './pictures.schemas.ts';
export * from './pictures.routes.ts';
export * from './capture-date.ts';
