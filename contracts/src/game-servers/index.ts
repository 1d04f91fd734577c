export * from './game-servers.schemas.ts';
export * from './game-servers.routes.ts';
