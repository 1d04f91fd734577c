import type { Token } from './scene.ts';

/**
 * The letters drawn on the map's tokens: a monster's kind initial, a survivor's initial, and when
 * survivors share an initial (Ada and Adai) a number after it in name order (A1, A2), so no two
 * survivors look alike on the map. A survivor whose initial is also a monster's (Bea among Bloaters)
 * shows the first two letters of the name (Be), so a survivor never wears a monster's letter.
 */
export function badgeLabels(tokens: readonly Pick<Token, 'id' | 'side' | 'kind' | 'name'>[]): Map<string, string> {
  const labels = new Map<string, string>();
  const initial = (text: string) => text.charAt(0).toUpperCase();
  const survivors = tokens.filter((t) => t.side === 'survivor').sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const sharing = new Map<string, number>();
  for (const t of survivors) sharing.set(initial(t.name), (sharing.get(initial(t.name)) ?? 0) + 1);
  const counted = new Map<string, number>();
  const monsterLetters = new Set<string>();
  for (const t of tokens) {
    if (t.side !== 'enemy') continue;
    labels.set(t.id, initial(t.kind));
    monsterLetters.add(initial(t.kind));
  }
  for (const t of survivors) {
    const letter = initial(t.name);
    const twoLetters = `${letter}${t.name.charAt(1).toLowerCase()}`;
    if ((sharing.get(letter) ?? 0) < 2) labels.set(t.id, monsterLetters.has(letter) && twoLetters.trim().length === 2 ? twoLetters : letter);
    else {
      const n = (counted.get(letter) ?? 0) + 1;
      counted.set(letter, n);
      labels.set(t.id, `${letter}${n}`);
    }
  }
  return labels;
}
