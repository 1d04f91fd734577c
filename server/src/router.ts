import { procedures } from '@site/contracts';
import { serverAreas, type ServerAreas } from './areas/index.ts';
import { serveRouter } from './trpc/invoke.ts';
import { router } from './trpc/procedures.ts';
import type { Meta } from './trpc/trpc.ts';

type Routers = { [K in keyof ServerAreas]: ServerAreas[K]['router'] };
const routers = Object.fromEntries(Object.entries(serverAreas).map(([key, area]) => [key, area.router])) as Routers;

export const appRouter = router(routers);
serveRouter(appRouter);

export type AppRouter = typeof appRouter;

/**
 * Deny by default, checked when the server loads: every procedure must have been built for its own
 * path in the permission table, and every entry of the table must have a procedure.
 */
function checkAgainstPermissionTable(): void {
  const built = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
  for (const [path, proc] of Object.entries(built)) {
    if (!(path in procedures)) throw new Error(`Procedure ${path} has no entry in the permission table (contracts/src/<area>/<area>.routes.ts)`);
    if (proc._def.meta?.path !== path) {
      throw new Error(`Procedure ${path} was built with the permissions of ${proc._def.meta?.path ?? 'nothing'}`);
    }
  }
  for (const path of Object.keys(procedures)) {
    if (!(path in built)) throw new Error(`The permission table names ${path}, which has no procedure`);
  }
}
checkAgainstPermissionTable();
