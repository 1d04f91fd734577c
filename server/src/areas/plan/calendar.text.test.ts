import fc from 'fast-check';
import ical from 'ical-generator';
import { describe, expect, it } from 'vitest';
import type { ICalEventData } from 'ical-generator';
import { calendarRenderer, foldLines } from './calendar.text.ts';

const OPTIONS = { name: 'Family week', prodId: { company: 'Family website', product: 'Week planner', language: 'EN' }, ttl: 3600 } as const;
const eventsOf = (summaries: string[]): ICalEventData[] =>
  summaries.map((summary, i) => ({
    id: `meal-${i}@example.org`,
    start: new Date(Date.UTC(2026, 10, 27, 18) + i * 86_400_000),
    end: new Date(Date.UTC(2026, 10, 27, 19) + i * 86_400_000),
    stamp: new Date(Date.UTC(2026, 10, 1)),
    summary,
    description: 'Anna cooks\n4 servings',
  }));
const libraryText = (events: ICalEventData[]) => ical({ ...OPTIONS, events }).toString();

describe('calendarRenderer', () => {
  it('is byte for byte what ical-generator makes, for long, accented, emoji and broken texts', () => {
    const render = calendarRenderer(OPTIONS);
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.oneof(fc.constantFrom('a', 'é', '€', '🍝', '\ud83c', '\udf5d', ' ', ';', '\n'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), minLength: 40, maxLength: 300 }), { minLength: 1, maxLength: 6 }), (summaries) => {
        expect(render(eventsOf(summaries))).toBe(libraryText(eventsOf(summaries)));
      }),
      { numRuns: 300 },
    );
  });

  it('renders a changed event again and keeps the others', () => {
    const render = calendarRenderer(OPTIONS);
    const week = eventsOf(['Dinner: soup', 'Lunch: 🍝', 'Dinner: pie']);
    expect(render(week)).toBe(libraryText(week));
    const changed = week.map((e, i) => (i === 1 ? { ...e, summary: 'Lunch: salad', stamp: new Date(Date.UTC(2026, 10, 2)) } : e));
    expect(render(changed)).toBe(libraryText(changed));
    expect(render(changed)).toContain('SUMMARY:Lunch: salad');
    expect(render([])).toBe(libraryText([]));
  });

  it('folds before the character that would pass 74 octets, a pair of surrogates being one character', () => {
    expect(foldLines(`SUMMARY:${'x'.repeat(66)}🍝y`)).toBe(`SUMMARY:${'x'.repeat(66)}\r\n 🍝y`);
    expect(foldLines(`${'é'.repeat(40)}`)).toBe(`${'é'.repeat(37)}\r\n ${'é'.repeat(3)}`);
    expect(foldLines('short\r\nlines')).toBe('short\r\nlines');
    expect(foldLines('x'.repeat(74))).toBe('x'.repeat(74));
    expect(foldLines('x'.repeat(75))).toBe(`${'x'.repeat(74)}\r\n x`);
    // A high surrogate without its low half: U+FFFD and the next character, as TextEncoder counts it.
    expect(foldLines(`${'x'.repeat(70)}\ud83cé`)).toBe(`${'x'.repeat(70)}\r\n \ud83cé`);
  });
});
