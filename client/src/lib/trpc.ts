import { createTRPCReact, httpBatchLink } from '@trpc/react-query';
import type { AppRouter } from '@site/server/trpc/root';

export const trpc = createTRPCReact<AppRouter>();

export function createTrpcClient(options: { url?: string; fetch?: typeof fetch } = {}) {
  return trpc.createClient({
    links: [httpBatchLink({ url: options.url ?? '/trpc', ...(options.fetch ? { fetch: options.fetch } : {}) })],
  });
}
