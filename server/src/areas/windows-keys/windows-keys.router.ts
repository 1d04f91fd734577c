import { router } from '../../trpc/procedures.ts';

/** The windows-keys procedures (none yet: the page is not built). */
export const windowsKeysRouter = router({});
