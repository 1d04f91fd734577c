import { useQueryClient } from '@tanstack/react-query';
import type { ResourcesOutput, TradeResource } from '@site/contracts/trade-game';
import { trpc, useMutationQuery } from '../../lib/trpc.ts';

/**
 * The player's resources. Reading them starts the game and marks a fresh one seen, so the server has
 * it as a mutation; the page keeps the answer in the query cache all the same.
 */
const KEY = [['tradeGame', 'resources']] as const;

export function useResources() {
  const utils = trpc.useUtils();
  return useMutationQuery(KEY, () => utils.client.tradeGame.resources.mutate());
}

/** After a trade, a purchase or an offer: the rows the server answered, or a fresh read. */
export function useUpdateResources() {
  const client = useQueryClient();
  return (rows?: TradeResource[]) => {
    if (rows) client.setQueryData<ResourcesOutput>(KEY, { rows, reset: false });
    else void client.invalidateQueries({ queryKey: KEY });
  };
}
