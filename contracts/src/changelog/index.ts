export * from './changelog.routes.ts';
