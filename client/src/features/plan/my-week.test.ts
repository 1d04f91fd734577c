import type { Chore, PlanDay } from '@site/contracts/plan';
import { describe, expect, it } from 'vitest';
import { myWeek, myWeekStarts } from './my-week.ts';

const chore = (name: string, next: string, assignee: string | null): Chore => ({
  id: name.length,
  name,
  next,
  assignee,
  points: 1,
  overdue: false,
  every: { days: 1 },
  who: { anyone: true },
  last: null,
});
const day = (date: string, cook: string | null): PlanDay => ({ date, slots: [{ meal: 'Dinner', recipeId: null, title: null, text: `Dinner ${date}`, cook, servings: null }] });

describe('My week', () => {
  it('reads this week and the next unless today is a Monday', () => {
    expect(myWeekStarts('2026-12-03')).toEqual(['2026-11-30', '2026-12-07']);
    expect(myWeekStarts('2026-11-30')).toEqual(['2026-11-30']);
  });

  it('lists chores and meals over the same 7 days from today, past Sunday', () => {
    // Thursday 3 December 2026: the 7 days run to Wednesday 9 December.
    const days = ['2026-11-30', '2026-12-02', '2026-12-03', '2026-12-06', '2026-12-07', '2026-12-09', '2026-12-10', '2026-12-13'].map((d) => day(d, 'Ann'));
    const week = myWeek('2026-12-03', 'ann', [chore('Bins', '2026-12-08', 'Ann'), chore('Dishes', '2026-12-10', null), chore('Mop', '2026-12-04', 'Bob')], days);
    expect(week.chores.map((c) => c.name)).toEqual(['Bins']);
    expect(week.cooking.map((s) => s.date)).toEqual(['2026-12-03', '2026-12-06', '2026-12-07', '2026-12-09']);
  });

  it('lists nobody else’s meals', () => {
    expect(myWeek('2026-12-03', 'Ann', [], [day('2026-12-04', 'Bob'), day('2026-12-05', null)]).cooking).toEqual([]);
    expect(myWeek('2026-12-03', null, [], [day('2026-12-04', null)]).cooking).toEqual([]);
  });
});
