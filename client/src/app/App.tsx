import { useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router-dom';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { AppRoutes } from './router.tsx';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(() => createTrpcClient());
  // The answers offline reading needs, kept in IndexedDB (lib/persist.ts): its own chunk, after the first render.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let live = true;
    void import('../lib/persist.ts').then(({ keepForOffline }) => {
      if (live) stop = keepForOffline(queryClient);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [queryClient]);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
