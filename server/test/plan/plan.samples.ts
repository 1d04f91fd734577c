import type { calendarRoutes, choresRoutes, planRoutes } from '@site/contracts';
import type { AreaSamples } from '../area-tables.ts';

/** A Monday: the samples' week. */
const start = '2026-11-23';

/**
 * A valid input per procedure: the permission matrix calls each at every level, and the backup
 * drill calls them twice as the owner (Owner, level 3), so the second round finds the chore, the
 * planned recipe and the template the first made: every table of the area holds rows.
 */
export const planSamples = {
  'plan.week': { start },
  // A text needs nothing else; a recipe's slot and its shopping are made by the drill (backups/site-data.ts).
  'plan.set': { date: '2026-11-24', meal: 'Dinner', text: 'Pizza out', cook: 'Owner', servings: 4 },
  // Tuesday's dinner stays; Monday's breakfast is never planned: a NOT_FOUND answer is not a refusal.
  'plan.clear': { date: '2026-11-23', meal: 'Breakfast' },
  'plan.copyLastWeek': { start: '2026-11-30' },
  'plan.templates': undefined,
  'plan.saveTemplate': { start, name: 'Usual week' },
  'plan.applyTemplate': { id: 1, start: '2026-12-07' },
  'plan.shop': { start },
  'plan.members': undefined,
  'plan.recipes': undefined,
  'plan.saveMeals': { meals: [{ name: 'Breakfast', time: '07:30' }, { name: 'Lunch', time: '12:30' }, { name: 'Dinner', time: '18:30' }] },
} satisfies AreaSamples<typeof planRoutes>;

export const choresSamples = {
  'chores.list': undefined,
  'chores.create': { name: 'Bins out', every: { weekdays: [1, 4] }, who: { turns: ['Owner'] }, points: 2 },
  'chores.update': { id: 1, points: 3 },
  // Chore 1 is done (and its history written) in the drill's rounds; delete names a chore that never exists.
  'chores.delete': { id: 99 },
  'chores.done': { id: 1, clientId: '0c8e4f4e-2b9f-4a8a-8f4c-6f1d2b3a4c5d' },
  'chores.undo': { id: 2 },
  'chores.points': { month: '2026-11' },
} satisfies AreaSamples<typeof choresRoutes>;

export const calendarSamples = {
  'calendar.feed': undefined,
  'calendar.reset': undefined,
  'calendar.settings': { everyone: true },
} satisfies AreaSamples<typeof calendarRoutes>;
