import { procedure, router } from '../../trpc/procedures.ts';
import * as backups from './backups.service.ts';

export const backupsRouter = router({
  status: procedure('backups.status').query(({ ctx }) => backups.status(ctx.deps, new Date())),
});
