import type { AuthTables } from './auth/auth.tables.ts';
import type { BackupsTables } from './backups/backups.tables.ts';
import type { ClimbingTables } from './climbing/climbing.tables.ts';
import type { DevDashboardTables } from './dev-dashboard/dev-dashboard.tables.ts';
import type { FinanceTables } from './finance/finance.tables.ts';
import type { FivetoolsTables } from './fivetools/fivetools.tables.ts';
import type { GameServersTables } from './game-servers/game-servers.tables.ts';
import type { HouseTables } from './house/house.tables.ts';
import type { PlanTables } from './plan/plan.tables.ts';
import type { IdentityTables } from '../identity/identity.tables.ts';
import type { ClientChangesTables } from '../client-changes/client-changes.tables.ts';
import type { MediaTables } from '../media/media.tables.ts';
import type { NotificationsTables } from './notifications/notifications.tables.ts';
import type { PicturesTables } from './pictures/pictures.tables.ts';
import type { PeopleTables } from './people/people.tables.ts';
import type { AlbumsTables } from './albums/albums.tables.ts';
import type { RecipesTables } from './recipes/recipes.tables.ts';
import type { SettingsTables } from './settings/settings.tables.ts';
import type { TodoTables } from './todo/todo.tables.ts';
import type { TradeGameTables } from './trade-game/trade-game.tables.ts';
import type { WindowsKeysTables } from './windows-keys/windows-keys.tables.ts';
import type { TowerDailyTables } from './tower-daily/tower-daily.tables.ts';
import type { YtdlTables } from './ytdl/ytdl.tables.ts';
import type { WebhooksTables } from './webhooks/webhooks.tables.ts';

/**
 * The whole database, composed from the tables each area declares in areas/<area>/<area>.tables.ts:
 * one `extends` per area. db/database.ts declares `Tables` empty so that db/ knows no area; this
 * composition module fills it in (TypeScript merges the declarations), and areas/index.ts re-exports
 * it so every program that sees the areas sees the whole database. Tests empty every table between
 * cases by asking the database which tables exist (test/helpers.ts), so nothing here lists them again.
 */
declare module '../db/database.ts' {
  interface Tables
    extends IdentityTables,
      AuthTables,
      SettingsTables,
      ClimbingTables,
      HouseTables,
      PlanTables,
      FivetoolsTables,
      PicturesTables,
      PeopleTables,
      AlbumsTables,
      YtdlTables,
      TodoTables,
      GameServersTables,
      WindowsKeysTables,
      TowerDailyTables,
      RecipesTables,
      TradeGameTables,
      FinanceTables,
      DevDashboardTables,
      BackupsTables,
      NotificationsTables,
      WebhooksTables,
      MediaTables,
      ClientChangesTables {}
}

export type { Tables } from '../db/database.ts';
