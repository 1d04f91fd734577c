import { defineServerArea } from '../area.ts';
import { ytdlRouter } from './ytdl.router.ts';

export const ytdlArea = defineServerArea({ router: ytdlRouter });
