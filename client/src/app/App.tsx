import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { RouterProvider } from 'react-router-dom';
import { persistOptions } from '../lib/persist.ts';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { createAppRouter } from './router.tsx';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** The query cache, with the answers offline reading needs kept in IndexedDB (lib/persist.ts) where the browser has it. */
function QueryProvider({ client, children }: { client: QueryClient; children: ReactNode }) {
  const [options] = useState(() => persistOptions(client));
  if (!options) return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return (
    <PersistQueryClientProvider client={client} persistOptions={options}>
      {children}
    </PersistQueryClientProvider>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(() => createTrpcClient());
  const [router] = useState(createAppRouter);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryProvider>
    </trpc.Provider>
  );
}
