export * from './trade-game.schemas.ts';
export * from './trade-game.routes.ts';
