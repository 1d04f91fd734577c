import { describe, expect, it } from 'vitest';
import { badgeLabels } from './badges.ts';

const survivor = (id: string, name: string) => ({ id, side: 'survivor' as const, kind: 'survivor', name });

describe('map badges', () => {
  it('numbers survivors who share an initial (Ada A1, Adai A2) and keeps single initials', () => {
    const labels = badgeLabels([survivor('s2', 'Adai'), survivor('s1', 'Ada'), survivor('s3', 'Bram'), { id: 'e1', side: 'enemy', kind: 'drone', name: 'Drone 1' }]);
    expect(Object.fromEntries(labels)).toEqual({ s1: 'A1', s2: 'A2', s3: 'B', e1: 'D' });
  });

  it('gives a survivor whose initial is a monster\'s (Bea among Bloaters) two letters, never the monster\'s letter', () => {
    const labels = badgeLabels([survivor('s1', 'Bea'), survivor('s2', 'Cid'), { id: 'e1', side: 'enemy', kind: 'bloater', name: 'Bloater 1' }, { id: 'e2', side: 'enemy', kind: 'bloater', name: 'Bloater 2' }]);
    expect(Object.fromEntries(labels)).toEqual({ s1: 'Be', s2: 'C', e1: 'B', e2: 'B' });
  });
});
