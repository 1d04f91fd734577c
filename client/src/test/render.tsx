import type { ReactElement, ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { createTrpcClient, trpc } from '../lib/trpc.ts';

/** Thrown by a fake procedure: becomes a tRPC error with this message and data. */
export class FakeTrpcError extends Error {
  constructor(
    message: string,
    readonly data: Record<string, unknown> = {},
    readonly httpStatus = 400,
  ) {
    super(message);
  }
}

export type FakeProcedures = Record<string, (input: unknown) => unknown>;
export type FakeCall = { path: string; input: unknown };

/**
 * A stand-in for the server at the fetch level, speaking tRPC's batch wire format, so components
 * are tested through the real tRPC and react-query code.
 */
export function fakeTrpcFetch(procedures: FakeProcedures, calls: FakeCall[]): typeof fetch {
  return async (url, init) => {
    const parsed = new URL(String(url instanceof Request ? url.url : url), 'http://test.local');
    const paths = decodeURIComponent(parsed.pathname.replace(/^\/trpc\//, '')).split(',');
    const inputs = (init?.method === 'POST' ? JSON.parse(String(init.body ?? '{}')) : JSON.parse(parsed.searchParams.get('input') ?? '{}')) as Record<
      string,
      unknown
    >;
    const results = await Promise.all(
      paths.map(async (path, index) => {
        const input = inputs[String(index)];
        calls.push({ path, input });
        const handler = procedures[path];
        try {
          if (!handler) throw new FakeTrpcError(`No fake for ${path}`, {}, 404);
          return { result: { data: await handler(input) } };
        } catch (error) {
          const e = error instanceof FakeTrpcError ? error : new FakeTrpcError(String(error), {}, 500);
          return { error: { message: e.message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: e.httpStatus, path, ...e.data } } };
        }
      }),
    );
    return new Response(JSON.stringify(results), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

export const SIGNED_OUT = { user: null, level: 0 };

/** Shows where the router went, for assertions about redirects. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export function renderWithSite(
  ui: ReactElement,
  { procedures = {}, path = '/', routePath = '*', extraRoutes }: { procedures?: FakeProcedures; path?: string; routePath?: string; extraRoutes?: ReactNode } = {},
) {
  const calls: FakeCall[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTrpcClient({ url: 'http://test.local/trpc', fetch: fakeTrpcFetch(procedures, calls) });
  const result = render(
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={routePath} element={ui} />
            {extraRoutes}
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return { ...result, calls, queryClient };
}
