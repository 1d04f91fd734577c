export * from './people.routes.ts';
export * from './people.schemas.ts';
