import { lazy, type ComponentType } from 'react';
import { Navigate, Route, Routes, matchRoutes } from 'react-router-dom';
import { routes, type SiteRoute } from '../routes.ts';
import { NotFound } from '../components/ErrorView.tsx';
import { PageChunkError } from './errors.tsx';
import { Guard } from './Guard.tsx';
import { trackedLoad } from './page-loads.ts';
import { Shell } from './Shell.tsx';

/**
 * Each page arrives with its own chunk (React.lazy); the guard wraps it with the access rule of its
 * row. react-router's declarative routes: its data router (loaders, actions, fetchers) is about 14 KB
 * brotli more in the shell, for nothing the site uses (docs/benchmarks.md).
 */
const pages = routes.map((route) => {
  const load = trackedLoad(route.load);
  // A chunk that cannot be fetched (offline, a page never opened here) is told in words (errors.tsx).
  const Page = lazy(() =>
    load().catch((error: unknown) => {
      throw new PageChunkError(error);
    }),
  );
  return { route, load, Page };
});

/** The page of the address the app starts on, fetched at once, beside the shell's startup calls; settles when it is there (or failed). */
export function preloadPage(pathname: string): Promise<unknown> {
  const first = pages.find(({ route }) => route.href === pageHrefAt(pathname));
  return first ? first.load().catch(() => {}) : Promise.resolve();
}

/** The page `<Routes>` shows at `pathname`, ranked as it ranks them: /personal/pictures/map is the map's, not the gallery's /personal/pictures/*. */
export function pageHrefAt(pathname: string): string | undefined {
  return matchRoutes(
    routes.map((route) => ({ path: route.pattern ?? route.href, href: route.href })),
    pathname,
  )?.[0]?.route.href;
}

function PageOf({ route, Page }: { route: SiteRoute; Page: ComponentType }) {
  return (
    <Guard route={route}>
      <Page />
    </Guard>
  );
}

/** The app's routes, inside a BrowserRouter (App.tsx) or a MemoryRouter (tests). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Shell />}>
        <Route index element={<Navigate to="/about" replace />} />
        {pages.map(({ route, Page }) => (
          <Route key={route.href} path={route.pattern ?? route.href} element={<PageOf route={route} Page={Page} />} />
        ))}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
