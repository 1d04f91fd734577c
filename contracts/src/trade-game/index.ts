export * from './trade-game.routes.ts';
