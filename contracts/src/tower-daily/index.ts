export * from './tower-daily.rules.ts';
export * from './tower-daily.schemas.ts';
export * from './tower-daily.routes.ts';
