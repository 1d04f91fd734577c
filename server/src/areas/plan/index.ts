import { defineServerArea } from '../area.ts';
import { calendarHttp } from './calendar.http.ts';
import { calendarRouter } from './calendar.router.ts';
import { choresRouter } from './chores.router.ts';
import { planMigrations } from './plan.migrations.ts';
import { planRouter } from './plan.router.ts';

/** The week planned, beside House: the meal plan (`plan.*`), chores (`chores.*`) and calendar feeds (`calendar.*`); one folder, one set of tables. */
export const planArea = defineServerArea({ router: planRouter, migrations: planMigrations });
export const choresArea = defineServerArea({ router: choresRouter });
export const calendarArea = defineServerArea({ router: calendarRouter, http: calendarHttp });
