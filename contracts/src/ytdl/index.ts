export * from './ytdl.routes.ts';
export * from './ytdl.schemas.ts';
export * from './ytdl.link.ts';
export * from './ytdl.files.ts';
export * from './ytdl.codecs.ts';
