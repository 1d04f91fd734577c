import { useEffect } from 'react';
import { Link, Outlet, useLocation, useNavigation } from 'react-router-dom';
import { LoadingCover } from '../components/LoadingCover.tsx';
import { OfflineBanner } from '../components/Loaded.tsx';
import { NewVersionBar } from '../components/NewVersionBar.tsx';
import { SkipLink, SkipTarget } from '../components/SkipLink.tsx';
import { Navbar, type NavLinkComponent } from '../components/navbar/Navbar.tsx';
import { applyColors } from '../lib/colors.ts';
import { trpc } from '../lib/trpc.ts';

const SIGNED_OUT = { user: null, level: 0 };

/**
 * The application shell: a loading cover until login status, colours and navbar style have
 * answered, then the navbar over the routed page. Print addresses get the page alone.
 */
export function Shell() {
  const location = useLocation();
  const navigation = useNavigation();
  const status = trpc.auth.status.useQuery();
  const colors = trpc.settings.colors.useQuery();
  const navbarStyle = trpc.settings.navbarStyle.useQuery();

  useEffect(() => {
    if (colors.data) applyColors(colors.data);
  }, [colors.data]);

  const print = `${location.pathname}${location.search}`.includes('print');
  if (print) return status.isPending ? null : <Outlet />;

  const ready = !status.isPending && !colors.isPending && !navbarStyle.isPending;
  if (!ready) return <LoadingCover />;
  return (
    <>
      {navigation.state === 'loading' && <div className="route-progress" role="progressbar" aria-label="Loading page" />}
      <SkipLink />
      <Navbar status={status.data ?? SIGNED_OUT} clickToToggle={navbarStyle.data?.clickToToggle ?? false} Link={Link as NavLinkComponent} />
      <NewVersionBar />
      <OfflineBanner />
      <SkipTarget>
        <Outlet />
      </SkipTarget>
    </>
  );
}
