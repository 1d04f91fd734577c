import { DEFAULT_COLORS, type Colors, type NavbarStyle, type Splash } from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../identity/session-user.ts';
import type { UserSettingsRecord } from './settings.tables.ts';
import * as repo from './settings.repository.ts';

const colorsOf = (row: UserSettingsRecord): Colors => ({
  menuColor: row.menu_color,
  backgroundColor: row.background_color,
  foregroundColor: row.foreground_color,
  accentColor: row.accent_color,
  linkColor: row.link_color,
  errorColor: row.error_color,
  menuColor2: row.menu_color2,
});

/** Anonymous visitors, and members who never saved any, get the defaults. */
export async function colors(deps: AppDeps, user: SessionUser | null): Promise<Colors> {
  const row = user ? await repo.findSettings(deps.db, user.id) : undefined;
  return row ? colorsOf(row) : { ...DEFAULT_COLORS };
}

/** The owner's colours (the installed app's title bar and splash screen), else the defaults. */
export async function ownerColors(deps: AppDeps): Promise<Colors> {
  const row = await repo.findOwnerSettings(deps.db);
  return row ? colorsOf(row) : { ...DEFAULT_COLORS };
}

export async function saveColors(deps: AppDeps, user: SessionUser, input: Colors): Promise<Colors> {
  return colorsOf(await repo.saveSettings(deps.db, user.id, repo.colorColumns(input)));
}

export async function navbarStyle(deps: AppDeps, user: SessionUser | null): Promise<NavbarStyle> {
  const row = user ? await repo.findSettings(deps.db, user.id) : undefined;
  return { clickToToggle: row?.click_to_toggle ?? false };
}

export async function saveNavbarStyle(deps: AppDeps, user: SessionUser, input: NavbarStyle): Promise<NavbarStyle> {
  const row = await repo.saveSettings(deps.db, user.id, { click_to_toggle: input.clickToToggle });
  return { clickToToggle: row.click_to_toggle };
}

/** The welcome popup shows until the member dismisses it for good. */
export async function splash(deps: AppDeps, user: SessionUser): Promise<Splash> {
  const row = await repo.findSettings(deps.db, user.id);
  return { display: !(row?.splash_dismissed ?? false) };
}

export async function dismissSplash(deps: AppDeps, user: SessionUser): Promise<Splash> {
  await repo.saveSettings(deps.db, user.id, { splash_dismissed: true });
  return { display: false };
}
