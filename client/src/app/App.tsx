import { useEffect } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { BrowserRouter } from 'react-router-dom';
import { afterLoadWhenIdle } from '../lib/idle.ts';
import { isOnline, onOnlineChange } from '../lib/online.ts';
import { createTrpcClient, trpc, type TrpcClient } from '../lib/trpc.ts';
import { firstPageCalls } from './first-page-data.ts';
import { AppRoutes } from './router.tsx';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/**
 * The shell's three startup calls (login status, colours, navbar style: Shell.tsx) asked for before the
 * first render, into the cache the shell reads them from: one batch, the very request index.html
 * preloads (client/start-hints.ts, STARTUP_BATCH_URL), so the answer is usually there already.
 */
export function fetchStartup(queryClient: QueryClient, client: TrpcClient): Promise<unknown> {
  const utils = createTRPCQueryUtils({ queryClient, client });
  return Promise.all([utils.auth.status.prefetch(), utils.settings.colors.prefetch(), utils.settings.navbarStyle.prefetch()]);
}

/**
 * The first page's own calls (first-page-data.ts: what its largest paint waits for), asked for beside
 * the startup calls into the same cache, so its first render has them. Through a client of their own:
 * a batch of their own, the very address the server preloaded with the page's HTML, not merged into
 * the startup batch (whose address index.html preloads).
 */
export function fetchFirstPage(queryClient: QueryClient, pathname: string): Promise<unknown> {
  const calls = firstPageCalls(pathname);
  if (!calls) return Promise.resolve();
  const utils = createTRPCQueryUtils({ queryClient, client: createTrpcClient() });
  return Promise.all(
    calls.map(({ path, input }) => {
      const procedure = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], utils) as { prefetch: (input?: unknown) => Promise<void> };
      return procedure.prefetch(input);
    }),
  );
}

export function App({ queryClient, trpcClient }: { queryClient: QueryClient; trpcClient: TrpcClient }) {
  // The answers offline reading needs, kept in IndexedDB (lib/persist.ts): its own chunk, loaded once
  // the page has loaded and the browser is idle (it writes what the page read by then), at once when
  // the page starts offline (it reads the kept answers back).
  useEffect(() => {
    let stop: (() => void) | undefined;
    let live = true;
    let started = false;
    const keep = () => {
      if (started) return;
      started = true;
      void import('../lib/persist.ts').then(({ keepForOffline }) => {
        if (live) stop = keepForOffline(queryClient);
      });
    };
    const cancel = afterLoadWhenIdle(keep);
    // Offline, or the site unreachable before then: the kept answers are needed now.
    const now = () => {
      if (!isOnline()) keep();
    };
    now();
    const stopWatching = onOnlineChange(now);
    return () => {
      live = false;
      cancel();
      stopWatching();
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
