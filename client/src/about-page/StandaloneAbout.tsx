import type { Status } from '@site/contracts';
import { LoadingCover } from '../components/LoadingCover.tsx';
import { Navbar, type NavLinkProps } from '../components/navbar/Navbar.tsx';
import { SkipLink, SkipTarget } from '../components/SkipLink.tsx';
import { About } from '../features/about/About.tsx';
import type { Startup } from '../lib/startup-fetch.ts';

const SIGNED_OUT: Status = { user: null, level: 0 };

/** Outside the router every link is a normal page load into the full app. */
function AnchorLink({ to, children, ...rest }: NavLinkProps) {
  return (
    <a href={to} {...rest}>
      {children}
    </a>
  );
}

/**
 * The About page as its own small document: the shell's cover and navbar without the router. A print
 * address (one containing 'print') gets the page alone, as the shell does for every route.
 */
export function StandaloneAbout({ startup, print = false }: { startup: Startup | null; print?: boolean }) {
  if (print) return <About />;
  return (
    <>
      <LoadingCover visible={startup === null} />
      <SkipLink />
      <Navbar status={startup?.status ?? SIGNED_OUT} clickToToggle={startup?.navbarStyle.clickToToggle ?? false} Link={AnchorLink} hydrating />
      <SkipTarget>
        <About />
      </SkipTarget>
    </>
  );
}
