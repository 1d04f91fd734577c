import { addDays, mondayOf, type Chore, type PlanDate, type PlanDay, type PlanSlot } from '@site/contracts/plan';

/** The plan weeks (their Mondays) that "My week" reads: today's, and the next one unless today is a Monday. */
export function myWeekStarts(today: PlanDate): PlanDate[] {
  const monday = mondayOf(today);
  return monday === today ? [monday] : [monday, addDays(monday, 7)];
}

export type MyWeek = { chores: Chore[]; cooking: (PlanSlot & { date: PlanDate })[] };

/**
 * "My week": the chores due (or overdue) up to 6 days from today and the meals the member cooks from
 * today to 6 days on, the same 7 rolling days for both (a week's plan ends on Sunday, so the days
 * after it come from the next week's plan). `me` matches case-insensitively; an "anyone" chore is everyone's.
 */
export function myWeek(today: PlanDate, me: string | null, chores: readonly Chore[], days: readonly PlanDay[]): MyWeek {
  const end = addDays(today, 6);
  const same = (name: string | null) => name !== null && me !== null && name.toLocaleLowerCase() === me.toLocaleLowerCase();
  return {
    chores: chores.filter((c) => c.next <= end && (c.assignee === null || same(c.assignee))),
    cooking: days
      .filter((d) => d.date >= today && d.date <= end)
      .flatMap((d) => d.slots.filter((s) => same(s.cook)).map((s) => ({ date: d.date, ...s }))),
  };
}
