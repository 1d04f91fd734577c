export * from './ytdl.routes.ts';
