export * from './backups.schemas.ts';
export * from './backups.routes.ts';
