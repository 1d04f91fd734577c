/*
 * The week planned (meal plan, chores, calendar feed): words, limits, messages and the date arithmetic
 * the pages and the server share. Plain values without zod (contracts/CONTRIBUTING: a page loads these
 * without the schemas).
 */

import { wallClock } from '../time-zone.ts';

/** A day as the plan and chores name it: 'YYYY-MM-DD', a date without a time or a zone. */
export type PlanDate = string;

export const PLAN_DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
export const DAY_MS = 86_400_000;

/** The meals of a day unless the owner names others: name and the time they are eaten ('HH:MM', the site's zone). */
export const DEFAULT_MEALS = [
  { name: 'Breakfast', time: '08:00' },
  { name: 'Lunch', time: '12:30' },
  { name: 'Dinner', time: '18:30' },
] as const;
/** How long a meal lasts in the calendar. */
export const MEAL_MINUTES = 60;

export const PLAN_LIMITS = { mealName: 40, meals: 8, text: 200, servings: 100, templateName: 100, templates: 50 } as const;
export const CHORE_LIMITS = { name: 100, points: 100, days: 365, turns: 20 } as const;
/** A chore's points unless it says otherwise. */
export const CHORE_DEFAULT_POINTS = 1;

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export const planMessages = {
  badDate: 'A date is written YYYY-MM-DD',
  notMonday: 'A week starts on a Monday',
  badTime: 'A time is written HH:MM',
  unknownMeal: (meal: string) => `No meal is named ${meal}`,
  noMember: (name: string) => `No family member is named ${name}`,
  emptySlot: 'Choose a recipe or write what is eaten',
  recipeOrText: 'A slot holds a recipe or a text, not both',
  unknownRecipe: 'No such recipe',
  badServings: `Servings are a whole number from 1 to ${PLAN_LIMITS.servings}`,
  noSlot: 'Nothing is planned for that meal',
  noTemplate: 'No such template',
  emptyWeek: 'Nothing is planned that week',
  sameMeal: 'Two meals may not have the same name',
  noMeals: 'A day needs at least one meal',
  tooManyMeals: `At most ${PLAN_LIMITS.meals} meals a day`,
  tooManyTemplates: `At most ${PLAN_LIMITS.templates} templates`,
} as const;

export const choreMessages = {
  notFound: 'No such chore',
  badPoints: `Points are a whole number from 1 to ${CHORE_LIMITS.points}`,
  badDays: `Every 1 to ${CHORE_LIMITS.days} days, a whole number`,
  badWeekdays: 'Choose weekdays from 1 (Monday) to 7 (Sunday)',
  badMonthDay: 'A day of the month is 1 to 31',
  noTurns: 'Choose who takes turns',
  sameTwice: 'Each member takes a turn once',
  tooManyTurns: `At most ${CHORE_LIMITS.turns} members take turns`,
  badMonth: 'A month is written YYYY-MM',
  nothingToUndo: 'That chore has not been done yet',
  alreadyDone: 'That chore was already done',
} as const;

export const calendarMessages = {
  notFound: 'No such calendar',
} as const;

/** What a chore done offline met when it was sent: someone had done it meanwhile (it is not recorded twice). */
export const CHORE_CONFLICTS = ['alreadyDone'] as const;
export type ChoreConflict = (typeof CHORE_CONFLICTS)[number];

// ---- Dates: 'YYYY-MM-DD' strings, computed in UTC so no zone or summer time moves them.

const toUtc = (date: PlanDate) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
const fromUtc = (ms: number): PlanDate => new Date(ms).toISOString().slice(0, 10);

/** Whether `value` is a real day written YYYY-MM-DD (not 2026-02-30). */
export function isPlanDate(value: string): boolean {
  return PLAN_DATE_SHAPE.test(value) && fromUtc(toUtc(value)) === value;
}

export function addDays(date: PlanDate, days: number): PlanDate {
  return fromUtc(toUtc(date) + days * DAY_MS);
}

/** Days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: PlanDate, b: PlanDate): number {
  return Math.round((toUtc(b) - toUtc(a)) / DAY_MS);
}

/** 1 (Monday) to 7 (Sunday). */
export function weekdayOf(date: PlanDate): number {
  return ((new Date(toUtc(date)).getUTCDay() + 6) % 7) + 1;
}

/** The Monday of the week `date` is in. */
export function mondayOf(date: PlanDate): PlanDate {
  return addDays(date, 1 - weekdayOf(date));
}

/** The seven days of the week starting `monday`. */
export function weekDays(monday: PlanDate): PlanDate[] {
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** The days in the month of `date`. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Today's date in a time zone ('Europe/Oslo'); the zone the site plans in. */
export function todayIn(timeZone: string, now: Date = new Date()): PlanDate {
  return dateIn(timeZone, now);
}

/** The date an instant falls on in `timeZone`. */
export function dateIn(timeZone: string, at: Date): PlanDate {
  const clock = wallClock(timeZone, at);
  return `${clock.year}-${clock.month}-${clock.day}`;
}

/** A chore's schedule: every N days, on chosen weekdays every week, or on a day of every month (the last day in shorter months). */
export type ChoreEvery = { days: number } | { weekdays: number[] } | { monthDay: number };

/** The first day on or after `from` the schedule falls on. */
export function firstOnOrAfter(every: ChoreEvery, from: PlanDate): PlanDate {
  if ('days' in every) return from;
  if ('weekdays' in every) {
    for (let i = 0; i < 7; i++) {
      const day = addDays(from, i);
      if (every.weekdays.includes(weekdayOf(day))) return day;
    }
    return from;
  }
  const year = Number(from.slice(0, 4));
  const month = Number(from.slice(5, 7));
  const inMonth = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-${String(Math.min(every.monthDay, daysInMonth(y, m))).padStart(2, '0')}`;
  const here = inMonth(year, month);
  if (here >= from) return here;
  return month === 12 ? inMonth(year + 1, 1) : inMonth(year, month + 1);
}

/**
 * The next date after a chore is done on `doneOn` while it was due `due`: every N days counts from the
 * day it was done (as House's repeating tasks do); weekdays and month days take the first of their
 * days after both the due date and the day it was done, so doing it late or early never leaves it due
 * again at once.
 */
export function nextAfterDone(every: ChoreEvery, due: PlanDate, doneOn: PlanDate): PlanDate {
  if ('days' in every) return addDays(doneOn, every.days);
  return firstOnOrAfter(every, addDays(due > doneOn ? due : doneOn, 1));
}

/** Who does a chore: one member, members in turns, or whoever does it first. */
export type ChoreWho = { one: string } | { turns: string[] } | { anyone: true };

/** A meal's slot as a line: the recipe's title or the text, and who cooks. */
export function slotTitle(slot: { title: string | null; text: string | null }): string {
  return slot.title ?? slot.text ?? '';
}
