import type { AnyRouter } from '@trpc/server';
import type { Migration } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { Config } from '../config.ts';
import type { AppDeps } from '../deps.ts';
import type { HttpRegistrar } from '../http/routes.ts';

/**
 * What one server area brings (areas/<area>/index.ts), composed in areas/index.ts:
 * - router: its tRPC procedures, under the area's key (`todo` for `todo.list`);
 * - migrations: its tables, named `YYYYMMDD_<area>_<what>` so areas never collide; they depend only
 *   on the accounts tables, so they may run in any order relative to other areas';
 * - http: its routes that are not tRPC, through the registrar that enforces the permission table;
 * - worker: background work started with the server and stopped with it (queues, sweeps);
 * - checkConfig: reads and checks what the area's settings name (a file), throwing ConfigError so a
 *   bad setting stops the start (config.ts reads the environment only).
 */
export type ServerArea<R extends AnyRouter = AnyRouter> = {
  router: R;
  migrations?: Readonly<Record<string, Migration>>;
  http?: (routes: HttpRegistrar, deps: AppDeps) => void | Promise<void>;
  worker?: (deps: AppDeps) => { stop(): Promise<void> | void };
  checkConfig?: (config: Config) => void;
  /**
   * Runs in the transaction that loads a backup (backups.restore.ts), once every table is loaded: what
   * the area derives from its rows and the archive holds as an older version made it (`archived`: the
   * migrations the archive was made under) is made again here.
   */
  afterRestore?: (trx: Executor, archived: readonly string[]) => Promise<void>;
};

export function defineServerArea<R extends AnyRouter>(area: ServerArea<R>): ServerArea<R> {
  return area;
}
