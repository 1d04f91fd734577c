import type { AuthTables } from '../areas/auth/auth.tables.ts';
import type { BackupsTables } from '../areas/backups/backups.tables.ts';
import type { ClimbingTables } from '../areas/climbing/climbing.tables.ts';
import type { DevDashboardTables } from '../areas/dev-dashboard/dev-dashboard.tables.ts';
import type { FinanceTables } from '../areas/finance/finance.tables.ts';
import type { FivetoolsTables } from '../areas/fivetools/fivetools.tables.ts';
import type { GameServersTables } from '../areas/game-servers/game-servers.tables.ts';
import type { HouseTables } from '../areas/house/house.tables.ts';
import type { PlanTables } from '../areas/plan/plan.tables.ts';
import type { IdentityTables } from '../identity/identity.tables.ts';
import type { ClientChangesTables } from '../client-changes/client-changes.tables.ts';
import type { MediaTables } from '../media/media.tables.ts';
import type { NotificationsTables } from '../areas/notifications/notifications.tables.ts';
import type { PicturesTables } from '../areas/pictures/pictures.tables.ts';
import type { PeopleTables } from '../areas/people/people.tables.ts';
import type { AlbumsTables } from '../areas/albums/albums.tables.ts';
import type { RecipesTables } from '../areas/recipes/recipes.tables.ts';
import type { SettingsTables } from '../areas/settings/settings.tables.ts';
import type { TodoTables } from '../areas/todo/todo.tables.ts';
import type { TradeGameTables } from '../areas/trade-game/trade-game.tables.ts';
import type { WindowsKeysTables } from '../areas/windows-keys/windows-keys.tables.ts';
import type { TowerDailyTables } from '../areas/tower-daily/tower-daily.tables.ts';
import type { YtdlTables } from '../areas/ytdl/ytdl.tables.ts';

/**
 * The whole database, composed from the tables each area declares in areas/<area>/<area>.tables.ts:
 * one `extends` per area. Tests empty every table between cases by asking the database which tables
 * exist (test/helpers.ts), so nothing here lists them again.
 */
export interface Tables
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
    MediaTables,
    ClientChangesTables {}
