import type { Colors, NavbarStyle, Status } from '@site/contracts';

/**
 * The three startup calls made with plain fetch, for the prerendered About page, which ships
 * without the tRPC and react-query runtime. tRPC answers a GET /trpc/<path> with {result:{data}}.
 */
async function query<T>(path: string): Promise<T> {
  const response = await fetch(`/trpc/${path}`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  const body = (await response.json()) as { result?: { data?: T } };
  if (body.result?.data === undefined) throw new Error(`${path} answered without data`);
  return body.result.data;
}

export type Startup = { status: Status; colors: Colors | null; navbarStyle: NavbarStyle };

export async function loadStartup(): Promise<Startup> {
  const [status, colors, navbarStyle] = await Promise.allSettled([
    query<Status>('auth.status'),
    query<Colors>('settings.colors'),
    query<NavbarStyle>('settings.navbarStyle'),
  ]);
  return {
    status: status.status === 'fulfilled' ? status.value : { user: null, level: 0 },
    colors: colors.status === 'fulfilled' ? colors.value : null,
    navbarStyle: navbarStyle.status === 'fulfilled' ? navbarStyle.value : { clickToToggle: false },
  };
}
