import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { routes, type SiteRoute } from '../routes.ts';
import { LoadingCover } from '../components/LoadingCover.tsx';
import { NotFound, RouterError } from './errors.tsx';
import { Guard } from './Guard.tsx';
import { Shell } from './Shell.tsx';

/** Each page arrives with its own chunk; the guard wraps it with the access rule of its row. */
function toRouteObject(route: SiteRoute): RouteObject {
  return {
    path: route.pattern ?? route.href,
    lazy: async () => {
      const { default: Page } = await route.load();
      return {
        Component: function GuardedPage() {
          return (
            <Guard route={route}>
              <Page />
            </Guard>
          );
        },
      };
    },
  };
}

export function appRouteObjects(): RouteObject[] {
  return [
    {
      path: '/',
      Component: Shell,
      HydrateFallback: LoadingCover,
      children: [
        {
          // Errors render inside the shell, under the navbar.
          ErrorBoundary: RouterError,
          children: [{ index: true, element: <Navigate to="/about" replace /> }, ...routes.map(toRouteObject), { path: '*', Component: NotFound }],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(appRouteObjects());
}
