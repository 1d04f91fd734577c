export * from './game-servers.routes.ts';
