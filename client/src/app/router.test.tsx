import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RECIPE_SETTINGS } from '@site/contracts/recipes';
import { DEFAULT_COLORS } from '@site/contracts/settings';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { fakeTrpcFetch, type FakeProcedures } from '../test/render.tsx';
import { RouterError } from './errors.tsx';
import { appRouteObjects } from './router.tsx';

function renderApp(path: string, status: { user: string | null; level: number }) {
  const procedures: FakeProcedures = {
    'auth.status': () => status,
    'settings.colors': () => DEFAULT_COLORS,
    'settings.navbarStyle': () => ({ clickToToggle: false }),
    'settings.splash': () => ({ display: false }),
    'recipes.get': () => ({ recipe_id: 1, title: 'Pancakes', author: '', foreword: '', servings: null, uploaded_date: '2026-01-01', steps: { '1': { instructions: 'Fry.', ingredients: [] } } }),
    'recipes.settings': () => DEFAULT_RECIPE_SETTINGS,
    'recipes.units': () => ({}),
  };
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const trpcClient = createTrpcClient({ url: 'http://test.local/trpc', fetch: fakeTrpcFetch(procedures, []) });
  const router = createMemoryRouter(appRouteObjects(), { initialEntries: [path] });
  render(
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </trpc.Provider>,
  );
  return router;
}

describe('the app router', () => {
  it("answers unknown addresses with 'How did you get here'", async () => {
    renderApp('/no/such/page', { user: null, level: 0 });
    expect(await screen.findByRole('heading', { name: 'How did you get here' })).toBeInTheDocument();
  });

  it('sends visitors from member pages to /login and pending accounts to /preauth', async () => {
    const router = renderApp('/personal/settings', { user: null, level: 0 });
    await screen.findByRole('heading', { name: 'Log In' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends a pending account from the hub to /preauth', async () => {
    const router = renderApp('/personal', { user: 'new', level: 0 });
    await screen.findByRole('heading', { name: 'Account pending' });
    expect(router.state.location.pathname).toBe('/preauth');
  });

  it('redirects / to /about', async () => {
    const router = renderApp('/', { user: null, level: 0 });
    await screen.findByRole('heading', { name: 'Sample Owner', level: 1 });
    expect(router.state.location.pathname).toBe('/about');
  });

  it('renders print addresses without the navbar', async () => {
    renderApp('/personal/recipes/printer/1', { user: 'o', level: 3 });
    await screen.findByRole('heading', { name: 'Pancakes', level: 1 });
    expect(screen.queryByTestId('navbar')).toBeNull();
  });

  it('shows a router error with status, status text and message', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '/',
          ErrorBoundary: RouterError,
          loader: () => {
            throw new Response('No loader for this route', { status: 405, statusText: 'Method Not Allowed' });
          },
          Component: () => null,
          HydrateFallback: () => null,
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: "That's an error." })).toBeInTheDocument();
    expect(screen.getByText('405')).toBeInTheDocument();
    expect(screen.getByText(/Method Not Allowed/)).toBeInTheDocument();
    expect(screen.getByText('No loader for this route')).toBeInTheDocument();
  });
});
