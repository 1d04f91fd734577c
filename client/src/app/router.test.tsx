import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RECIPE_SETTINGS } from '@site/contracts/recipes';
import { DEFAULT_COLORS } from '@site/contracts/settings';
import { createTrpcClient, trpc } from '../lib/trpc.ts';
import { fakeTrpcFetch, type FakeProcedures } from '../test/render.tsx';
import { PageErrors } from './errors.tsx';
import { AppRoutes, pageHrefAt } from './router.tsx';

/** A page's chunk is fetched when it first renders (React.lazy); on a busy machine that takes a while. */
const LAZY_PAGE = { timeout: 10_000 };

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
  const router = { pathname: '' };
  function Where() {
    router.pathname = useLocation().pathname;
    return null;
  }
  render(
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
          <Where />
        </MemoryRouter>
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
    await screen.findByRole('heading', { name: 'Log In' }, LAZY_PAGE);
    expect(router.pathname).toBe('/login');
  });

  it('sends a pending account from the hub to /preauth', async () => {
    const router = renderApp('/personal', { user: 'new', level: 0 });
    await screen.findByRole('heading', { name: 'Account pending' }, LAZY_PAGE);
    expect(router.pathname).toBe('/preauth');
  });

  it('redirects / to /about', async () => {
    const router = renderApp('/', { user: null, level: 0 });
    await screen.findByRole('heading', { name: 'Sample Owner', level: 1 });
    expect(router.pathname).toBe('/about');
  });

  it('renders print addresses without the navbar', async () => {
    renderApp('/personal/recipes/printer/1', { user: 'o', level: 3 });
    await screen.findByRole('heading', { name: 'Pancakes', level: 1 }, LAZY_PAGE);
    expect(screen.queryByTestId('navbar')).toBeNull();
  });

  it("shows what a page threw, with its message, and tries again at the next address", async () => {
    function Broken(): never {
      throw new Error('The page broke');
    }
    const { rerender } = render(
      <MemoryRouter>
        <PageErrors resetKey="/a">
          <Broken />
        </PageErrors>
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: "That's an error." })).toBeInTheDocument();
    expect(screen.getByText('The page broke')).toBeInTheDocument();
    rerender(
      <MemoryRouter>
        <PageErrors resetKey="/b">
          <p>Next page</p>
        </PageErrors>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Next page')).toBeInTheDocument();
  });

  it("names the page the router shows at an address, the likeliest first (the page main.tsx fetches at start)", () => {
    expect(pageHrefAt('/personal/pictures/map')).toBe('/personal/pictures/map');
    expect(pageHrefAt('/personal/pictures/people')).toBe('/personal/pictures/people');
    expect(pageHrefAt('/personal/pictures/people/3')).toBe('/personal/pictures/people');
    expect(pageHrefAt('/personal/pictures/month/2')).toBe('/personal/pictures');
    expect(pageHrefAt('/house')).toBe('/house');
    expect(pageHrefAt('/no/such/page')).toBeUndefined();
  });
});
