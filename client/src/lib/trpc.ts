import { useQuery } from '@tanstack/react-query';
import type { TRPCClientErrorLike } from '@trpc/client';
import { createTRPCReact, httpBatchLink } from '@trpc/react-query';
import type { AppRouter } from '@site/server/router';
import { ACCOUNT_HEADER } from '@site/contracts/access';
import { reportReachable } from './online.ts';

export const trpc = createTRPCReact<AppRouter>();

export type TrpcClient = ReturnType<typeof createTrpcClient>;

export function createTrpcClient(options: { url?: string; fetch?: typeof fetch } = {}) {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  // Every answer (whatever its status) says the server is reachable; a call that gets none says it is not (lib/online.ts).
  const watched: typeof fetch = async (input, init) => {
    try {
      const response = await send(input, init);
      reportReachable(true);
      return response;
    } catch (error) {
      // A call the page itself cancelled says nothing about the network.
      const cancelled = init?.signal?.aborted || (error instanceof DOMException && error.name === 'AbortError');
      if (!cancelled) reportReachable(false);
      throw error;
    }
  };
  return trpc.createClient({
    links: [httpBatchLink({ url: options.url ?? '/trpc', fetch: watched, headers: ({ opList }) => accountHeader(opList) })],
  });
}

/**
 * A call made for one account (`mutate(input, { context: { account } })`: the offline queue's changes)
 * says so in ACCOUNT_HEADER; the server refuses it under another account's session.
 */
function accountHeader(opList: readonly { context: Record<string, unknown> }[]): Record<string, string> {
  const account = opList.find((op) => typeof op.context.account === 'string' && op.context.account !== '')?.context.account as string | undefined;
  return account === undefined ? {} : { [ACCOUNT_HEADER]: encodeURIComponent(account) };
}

/** The error of a tRPC call, as react-query holds it. */
type TrpcError = TRPCClientErrorLike<AppRouter>;

/**
 * A call the server has as a mutation (it changes state: no query may, since a cross-site link can
 * run a query) whose answer a page still reads like a query: cached under `key`, fetched when
 * enabled. `key` starts with the procedure's path, as tRPC's own keys do, so invalidating the
 * router (`utils.<area>.invalidate()`) refreshes it too.
 */
export function useMutationQuery<T>(
  key: readonly [readonly string[], ...unknown[]],
  call: () => Promise<T>,
  options: { enabled?: boolean; staleTime?: number } = {},
) {
  return useQuery<T, TrpcError>({ queryKey: key, queryFn: call, retry: false, refetchOnWindowFocus: false, ...options });
}
