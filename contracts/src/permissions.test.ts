import { describe, expect, it } from 'vitest';
import { allows, allowsPage, pages } from './permissions.ts';

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
  it('opens port-8443 pages to members on that port only', () => {
    const friend = { name: 'a', level: 1 } as const;
    expect(allowsPage(pages['/personal/dungeon-crawler'], friend, 8080)).toBe(false);
    expect(allowsPage(pages['/personal/dungeon-crawler'], friend, 8443)).toBe(true);
    expect(allowsPage(pages['/personal/dungeon-crawler'], null, 8443)).toBe(false);
  });
});
