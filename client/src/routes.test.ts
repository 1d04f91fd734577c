import { describe, expect, it } from 'vitest';
import { pages } from '@site/contracts/permissions';
import { linksFor } from './lib/links.ts';
import { routes } from './routes.ts';

const labels = (group: 'cool' | 'admin', level: 0 | 1 | 2 | 3 | null, port = 8080) =>
  linksFor(group, level === null ? null : { name: 'x', level }, port).map((r) => r.label);

describe('routes table', () => {
  it('has a route for every page in the permission table', () => {
    const routed = new Set(routes.map((r) => r.href));
    expect(Object.keys(pages).filter((p) => !routed.has(p as keyof typeof pages))).toEqual([]);
  });

  it('lists hub links by level, in the spec order', () => {
    expect(labels('cool', null)).toEqual([]);
    expect(labels('cool', 0)).toEqual([]);
    // The spec's list, and the API reference (docs/api.md) after Settings.
    expect(labels('cool', 1)).toEqual(['5eTools', 'Pictures', 'YT-DL', 'TODO', 'Game Servers', 'Settings', 'API reference', 'Changelog']);
    expect(labels('cool', 2)).toEqual([
      'Climb Passes',
      'House TODO',
      'Meal plan',
      'Chores',
      '5eTools',
      'Pictures',
      'Add Pictures',
      'YT-DL',
      'TODO',
      'Game Servers',
      'Windows Keys',
      'Settings',
      'API reference',
      'Changelog',
    ]);
    expect(labels('cool', 3)).toEqual([...labels('cool', 2), 'Recipes', 'Trade Game', 'Microsoft Tower']);
    expect(labels('admin', 2)).toEqual([]);
    expect(labels('admin', 3)).toEqual(['Admin Dash', 'Finance', 'Dev Dash', 'Old Home']);
  });

  it('opens Recipes, Trade Game and the dungeon crawler to members on port 8443', () => {
    expect(labels('cool', 1, 8443)).toEqual([
      '5eTools',
      'Pictures',
      'YT-DL',
      'TODO',
      'Game Servers',
      'Settings',
      'API reference',
      'Changelog',
      'Recipes',
      'Trade Game',
      'Microsoft Tower',
    ]);
  });

  it('loads every page lazily', async () => {
    for (const route of routes) {
      const module = await route.load();
      expect(typeof module.default, route.href).toBe('function');
    }
    // Every page's module is transformed here for the first time: a loaded machine needs more than 5 s.
  }, 30_000);
});
