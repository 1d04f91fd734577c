import { describe, expect, it } from 'vitest';
import { mergeRows } from './area.ts';
import { areaRoutes } from './areas.ts';
import { allows, httpRoutes, pages, procedures } from './permissions.ts';

describe('allows', () => {
  it('lets anyone through a public rule', () => {
    expect(allows('public', null)).toBe(true);
  });
  it('needs a signed-in account of at least the level', () => {
    expect(allows(0, null)).toBe(false);
    expect(allows(0, { name: 'a', level: 0 })).toBe(true);
    expect(allows(2, { name: 'a', level: 1 })).toBe(false);
    expect(allows(2, { name: 'a', level: 2 })).toBe(true);
  });
  it("lists in pages.ts every area's pages, in the order of areas.ts (the links' order)", () => {
    const fromAreas = mergeRows(areaRoutes, 'pages');
    expect(Object.keys(pages)).toEqual(Object.keys(fromAreas));
    expect(pages).toEqual(fromAreas);
  });

  it('opens port-8443 pages to members on that port only', () => {
    const friend = { name: 'a', level: 1 } as const;
    expect(allows(pages['/personal/dungeon-crawler'], friend, 8080)).toBe(false);
    expect(allows(pages['/personal/dungeon-crawler'], friend, 8443)).toBe(true);
    expect(allows(pages['/personal/dungeon-crawler'], null, 8443)).toBe(false);
  });
  it('opens the recipes a port-8443 page reads to members there, and keeps writing to admins', () => {
    const friend = { name: 'a', level: 1 } as const;
    const pending = { name: 'p', level: 0 } as const;
    for (const rule of [procedures['recipes.list'], procedures['recipes.get'], httpRoutes['GET /private/recipes/:file']]) {
      expect(allows(rule, friend, 8443)).toBe(true);
      expect(allows(rule, friend, 8080)).toBe(false);
      expect(allows(rule, friend)).toBe(false);
      expect(allows(rule, pending, 8443)).toBe(false);
      expect(allows(rule, null, 8443)).toBe(false);
      expect(allows(rule, { name: 'o', level: 3 }, 8080)).toBe(true);
    }
    for (const rule of [procedures['recipes.create'], procedures['recipes.delete'], httpRoutes['POST /private/recipes/images']]) {
      expect(allows(rule, friend, 8443)).toBe(false);
    }
  });
  it('reads a port given as a function only when the rule\'s port decides', () => {
    const unread = () => {
      throw new Error('the port was read');
    };
    const rule = procedures['recipes.get'];
    expect(allows(rule, { name: 'o', level: 3 }, unread)).toBe(true);
    expect(allows(rule, null, unread)).toBe(false);
    expect(allows(rule, { name: 'p', level: 0 }, unread)).toBe(false);
    expect(allows(procedures['recipes.create'], { name: 'a', level: 1 }, unread)).toBe(false);
    expect(allows(rule, { name: 'a', level: 1 }, () => 8443)).toBe(true);
    expect(allows(rule, { name: 'a', level: 1 }, () => undefined)).toBe(false);
  });
});
