import { router } from '../../trpc/procedures.ts';

/** The ytdl procedures (none yet: the page is not built). */
export const ytdlRouter = router({});
