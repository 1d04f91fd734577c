import { useQuery } from '@tanstack/react-query';
import type { TRPCClientErrorLike } from '@trpc/client';
import { createTRPCReact, httpBatchLink } from '@trpc/react-query';
import type { AppRouter } from '@site/server/trpc/root';

export const trpc = createTRPCReact<AppRouter>();

export function createTrpcClient(options: { url?: string; fetch?: typeof fetch } = {}) {
  return trpc.createClient({
    links: [httpBatchLink({ url: options.url ?? '/trpc', ...(options.fetch ? { fetch: options.fetch } : {}) })],
  });
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
