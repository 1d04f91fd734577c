import { FIVETOOLS_INSTALL_COMMAND, FIVETOOLS_URL, type FivetoolsStatus } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import { isInstalled } from './fivetools.install.ts';

export const fivetoolsRouter = router({
  /** Whether a copy is installed, so the page shows the frame or the command that installs one. */
  status: procedure('fivetools.status').query(
    ({ ctx }): FivetoolsStatus => ({ installed: isInstalled(ctx.deps.config.fivetoolsDir), url: FIVETOOLS_URL, command: FIVETOOLS_INSTALL_COMMAND }),
  ),
});
