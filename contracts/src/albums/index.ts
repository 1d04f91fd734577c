export * from './albums.schemas.ts';
export * from './albums.routes.ts';
