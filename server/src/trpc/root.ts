import { procedures } from '@site/contracts';
import { adminRouter } from '../areas/admin/admin.router.ts';
import { authRouter } from '../areas/auth/auth.router.ts';
import { settingsRouter } from '../areas/settings/settings.router.ts';
import { router } from './procedures.ts';
import type { Meta } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  settings: settingsRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;

/**
 * Deny by default, checked when the server loads: every procedure must have been built for its own
 * path in the permission table, and every entry of the table must have a procedure.
 */
function checkAgainstPermissionTable(): void {
  const built = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
  for (const [path, proc] of Object.entries(built)) {
    if (!(path in procedures)) throw new Error(`Procedure ${path} has no entry in contracts/src/permissions.ts`);
    if (proc._def.meta?.path !== path) {
      throw new Error(`Procedure ${path} was built with the permissions of ${proc._def.meta?.path ?? 'nothing'}`);
    }
  }
  for (const path of Object.keys(procedures)) {
    if (!(path in built)) throw new Error(`contracts/src/permissions.ts names ${path}, which has no procedure`);
  }
}
checkAgainstPermissionTable();
