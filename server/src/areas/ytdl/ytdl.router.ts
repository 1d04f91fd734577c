import { ytdlInfoInput, ytdlJobInput, ytdlStartInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import { ytdlService } from './ytdl.service.ts';

/**
 * YT-DL as a small job resource the page polls (the /trpc mount has no subscriptions, and a poll
 * every half second costs nothing next to a download): start -> job id, progress, cancel; the file
 * itself comes from GET /api/ytdl/file/:job.
 */
export const ytdlRouter = router({
  version: procedure('ytdl.version').query(({ ctx }) => ytdlService(ctx.deps).version()),
  status: procedure('ytdl.status').query(({ ctx }) => ytdlService(ctx.deps).status()),
  // A mutation: it runs yt-dlp against a link and ends the member's previous lookup, which no
  // cross-site GET may do (no query changes state).
  info: procedure('ytdl.info')
    .input(ytdlInfoInput)
    .mutation(({ ctx, input }) => ytdlService(ctx.deps).info(ctx.user.id, input.url)),
  start: procedure('ytdl.start')
    .input(ytdlStartInput)
    .mutation(({ ctx, input }) => ytdlService(ctx.deps).start(ctx.user.id, input)),
  progress: procedure('ytdl.progress')
    .input(ytdlJobInput)
    .query(({ ctx, input }) => ytdlService(ctx.deps).progress(ctx.user.id, input.job)),
  cancel: procedure('ytdl.cancel')
    .input(ytdlJobInput)
    .mutation(({ ctx, input }) => ytdlService(ctx.deps).cancel(ctx.user.id, input.job)),
});
