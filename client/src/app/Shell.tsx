import { lazy, Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { LoadingCover } from '../components/LoadingCover.tsx';
import { OfflineBanner } from '../components/Loaded.tsx';
import { NewVersionBar } from '../components/NewVersionBar.tsx';
import { OfflineReady } from '../components/OfflineReady.tsx';
import { SkipLink, SkipTarget } from '../components/SkipLink.tsx';
import { Navbar, type NavLinkComponent } from '../components/navbar/Navbar.tsx';
import { applyColors } from '../lib/colors.ts';
import { trpc } from '../lib/trpc.ts';
import { useAfterLoadIdle } from '../lib/use-after-load.ts';
import { BellLink } from './BellLink.tsx';
import { PageErrors } from './errors.tsx';
import { usePageLoading } from './page-loads.ts';

const SIGNED_OUT = { user: null, level: 0 };

const LiveAccounts = lazy(() => import('./LiveAccounts.tsx'));
const NotificationBell = lazy(() => import('./NotificationBell.tsx'));

/**
 * The application shell: a loading cover until login status, colours and navbar style have
 * answered, then the navbar over the routed page. Print addresses get the page alone.
 */
export function Shell() {
  const location = useLocation();
  const pageLoading = usePageLoading();
  const status = trpc.auth.status.useQuery();
  const colors = trpc.settings.colors.useQuery();
  const navbarStyle = trpc.settings.navbarStyle.useQuery();
  const admin = status.data?.user != null && status.data.level >= 3;
  // What the first paint and first taps do not need (the admins' waiting count and its live feed, the
  // bell's count and its feed) starts once the page has loaded and the browser is idle.
  const later = useAfterLoadIdle();
  const waiting = trpc.admin.waitingCount.useQuery(undefined, { enabled: admin && later });

  useEffect(() => {
    if (colors.data) applyColors(colors.data);
  }, [colors.data]);

  const print = `${location.pathname}${location.search}`.includes('print');
  // A guest link's pages (SHARED_PAGE and UPLOAD_PAGE in contracts/albums, written out here: the shell
  // loads no area's contracts) show nothing else of the site: no navbar, no member's name.
  const guest = /^\/(shared|upload)(\/|$)/.test(location.pathname);
  // Errors render inside the shell, under the navbar. The cover stays until the first page's chunk is
  // there; later ones load in a transition, the page on screen staying under the progress bar.
  const page = (
    <PageErrors resetKey={location.pathname}>
      <Suspense fallback={print ? null : <LoadingCover />}>
        <Outlet />
      </Suspense>
    </PageErrors>
  );
  if (print || guest) return status.isPending ? null : page;

  const ready = !status.isPending && !colors.isPending && !navbarStyle.isPending;
  if (!ready) return <LoadingCover />;
  return (
    <>
      {pageLoading && <PageProgress />}
      <SkipLink />
      {admin && later && (
        <Suspense fallback={null}>
          <LiveAccounts />
        </Suspense>
      )}
      <Navbar
        status={status.data ?? SIGNED_OUT}
        clickToToggle={navbarStyle.data?.clickToToggle ?? false}
        Link={Link as NavLinkComponent}
        waiting={admin ? (waiting.data?.count ?? 0) : 0}
        bell={
          status.data?.user != null && status.data.level >= 1 ? (
            later ? (
              <Suspense fallback={<BellLink count={0} />}>
                <NotificationBell />
              </Suspense>
            ) : (
              <BellLink count={0} />
            )
          ) : undefined
        }
      />
      <NewVersionBar />
      <OfflineBanner />
      <OfflineReady />
      <SkipTarget>{page}</SkipTarget>
    </>
  );
}

function PageProgress() {
  return <div className="route-progress" role="progressbar" aria-label="Loading page" />;
}
