import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * Counts the statements sent through a Kysely instance (`db.withPlugin(counter)`), so a test or a
 * benchmark can measure how much database work something causes (each statement outside a transaction
 * is a transaction of its own on PostgreSQL and PGlite alike).
 */
export class QueryCounter implements KyselyPlugin {
  count = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
