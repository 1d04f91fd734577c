import type { Augment, Die, Enemy, EnemyKind, EnemyRules, Item, Rules, Weapon, WeaponRules, WeaponType } from './types.ts';

/** Survivor constants from the spec. */
export const SURVIVOR = { hp: 5, actions: 3, movesPerAction: 2, attacksPerAction: 2 } as const;
/** Carried items per survivor. */
export const INVENTORY_SIZE = 4;
/** XP price of a weapon upgrade at the upgrade station. */
export const WEAPON_UPGRADE_XP = 3;
/** XP price of the ocular lasers augment. */
export const OCULAR_LASERS_XP = 5;

function die(name: string, values: number[], skew: number[] | null = null): Die {
  return { name, faces: values.map((value) => ({ value, image: `${name}-${value}` })), skew };
}

type WeaponStats = Omit<Weapon, 'id' | 'x' | 'y'>;

export const WEAPONS: Readonly<Record<WeaponType, WeaponStats>> = {
  revolver: {
    kind: 'weapon',
    type: 'revolver',
    name: 'Revolver',
    description: 'Six shots, long reach. Upgrade: 8 shots, range 4, +1 point-blank.',
    damageDice: [die('revolver', [0, 1, 1, 2, 2, 3], [1, 2, 2, 2, 2, 1])],
    ammo: 6,
    ammoMax: 6,
    attackCost: 2,
    range: 3,
    pointBlank: 0,
    burst: 1,
    upgradable: true,
    upgraded: false,
  },
  burstPistol: {
    kind: 'weapon',
    type: 'burstPistol',
    name: 'Burst pistol',
    description: 'Fires a burst of 3 shots. Upgrade: 12 ammo, bursts of 4.',
    damageDice: [die('burst', [0, 1, 1, 2])],
    ammo: 9,
    ammoMax: 9,
    attackCost: 2,
    range: 2,
    pointBlank: 0,
    burst: 3,
    upgradable: true,
    upgraded: false,
  },
  punch: {
    kind: 'weapon',
    type: 'punch',
    name: 'Punch',
    description: 'Hit something on your own tile.',
    damageDice: [die('punch', [0, 1], [1, 1])],
    ammo: null,
    ammoMax: null,
    attackCost: 1,
    range: 0,
    pointBlank: 0,
    burst: 1,
    upgradable: false,
    upgraded: false,
  },
  ocularLasers: {
    kind: 'weapon',
    type: 'ocularLasers',
    name: 'Ocular lasers',
    description: 'Eye beams: no ammo, range 1.',
    damageDice: [die('laser', [0, 1, 1, 2])],
    ammo: null,
    ammoMax: null,
    attackCost: 1,
    range: 1,
    pointBlank: 0,
    burst: 1,
    upgradable: false,
    upgraded: false,
  },
};

/** Applies the augment of an upgradable weapon (revolver: ammo 8, range 4, point-blank 1;
 * burst pistol: ammo 12, burst 4). */
export function upgradeWeapon(weapon: Weapon): Weapon {
  if (weapon.type === 'revolver') return { ...weapon, upgraded: true, ammoMax: 8, range: 4, pointBlank: 1 };
  if (weapon.type === 'burstPistol') return { ...weapon, upgraded: true, ammoMax: 12, burst: 4 };
  return weapon;
}

const ARMOR = {
  vest: { kind: 'armor', type: 'vest', name: 'Kevlar vest', description: 'Blocks 1 damage from every enemy attack.', armor: 1 },
} as const;

/** Creates an item from a catalogue key ('revolver', 'burstPistol', 'punch', 'ocularLasers', 'vest'). */
export function makeItem(type: string, id: string, x: number | null = null, y: number | null = null, rules?: Rules): Item {
  const weapon = (WEAPONS as Record<string, WeaponStats | undefined>)[type];
  if (weapon) {
    const changed = rules?.weapons[type as WeaponType];
    return changed ? { ...weapon, ...weaponNumbers(changed), id, x, y } : { ...weapon, id, x, y };
  }
  if (type === 'vest') return { ...ARMOR.vest, id, x, y };
  throw new Error(`Unknown item type ${type}`);
}

function weaponNumbers(r: WeaponRules): Pick<Weapon, 'ammo' | 'ammoMax' | 'range' | 'attackCost' | 'burst' | 'pointBlank'> {
  return { ammo: r.ammo, ammoMax: r.ammo, range: r.range, attackCost: r.attackCost, burst: r.burst, pointBlank: r.pointBlank };
}

export function makeWeapon(type: string, id: string, rules?: Rules): Weapon {
  const item = makeItem(type, id, null, null, rules);
  if (item.kind !== 'weapon') throw new Error(`${type} is not a weapon`);
  return item;
}

export function baseAugments(rules?: Rules): Augment[] {
  return [
    {
      id: 'ocularLasers',
      name: 'Ocular lasers',
      description: 'Adds an unarmed attack: cost 1 quick attack, range 1, no ammo.',
      cost: rules ? rules.augments.ocularLasers : OCULAR_LASERS_XP,
      installed: false,
    },
  ];
}

type EnemyStats = Omit<Enemy, 'id' | 'x' | 'y' | 'prevX' | 'prevY'>;

export const ENEMIES: Readonly<Record<EnemyKind, EnemyStats>> = {
  drone: {
    kind: 'drone',
    name: 'Drone',
    hp: 1,
    hpMax: 1,
    actions: 2,
    actionsMax: 2,
    move: 1,
    attackDice: [die('claw', [1, 1, 1, 2])],
    dodgeDie: die('dodge', [0, 0, 0, 0, 0, 1]),
    xp: 2,
  },
  runner: {
    kind: 'runner',
    name: 'Runner',
    hp: 1,
    hpMax: 1,
    actions: 2,
    actionsMax: 2,
    move: 2,
    attackDice: [die('bite', [1, 1, 2, 2])],
    dodgeDie: die('dodge', [0, 0, 0, 0, 1, 1]),
    xp: 3,
  },
  bloater: {
    kind: 'bloater',
    name: 'Bloater',
    hp: 3,
    hpMax: 3,
    actions: 2,
    actionsMax: 2,
    move: 1,
    attackDice: [die('slam', [0, 1, 2]), die('slam', [0, 1, 2])],
    dodgeDie: die('dodge', [0]),
    xp: 6,
  },
};

/** A new enemy of the catalogue, with a rules variant's numbers when the game has one. */
export function makeEnemy(kind: EnemyKind, id: string, x: number, y: number, rules?: Rules): Enemy {
  if (!rules) return { ...ENEMIES[kind], id, x, y, prevX: x, prevY: y };
  return { ...ENEMIES[kind], ...enemyNumbers(rules.enemies[kind]), id, x, y, prevX: x, prevY: y };
}

function enemyNumbers(r: EnemyRules): Pick<Enemy, 'hp' | 'hpMax' | 'actions' | 'actionsMax' | 'move' | 'xp'> {
  return { hp: r.hp, hpMax: r.hp, actions: r.actions, actionsMax: r.actions, move: r.move, xp: r.xp };
}
