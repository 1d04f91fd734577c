import { Rng } from './rng.ts';
import type { Enemy, GameEvent, GameState, Interactible, Item, Survivor } from './types.ts';

/**
 * Copy-on-write working copy of a state for one `apply` call. Arrays and actors are copied the first
 * time they are changed; everything untouched (level data, other actors) is shared with the input.
 */
export class Draft {
  readonly state: GameState;
  readonly rng: Rng;
  readonly events: GameEvent[] = [];
  private readonly owned = new Set<object>();

  constructor(base: GameState) {
    this.state = { ...base };
    this.rng = new Rng(base.rng);
  }

  emit(event: GameEvent): void {
    this.events.push(event);
  }

  newId(prefix: 's' | 'e' | 'i' | 'x'): string {
    const id = `${prefix}${this.state.nextId}`;
    this.state.nextId += 1;
    return id;
  }

  private own<T extends object>(value: T): T {
    if (this.owned.has(value)) return value;
    const copy = (Array.isArray(value) ? value.slice() : { ...value }) as T;
    this.owned.add(copy);
    return copy;
  }

  survivors(): Survivor[] {
    const arr = this.own(this.state.survivors);
    this.state.survivors = arr;
    return arr;
  }

  enemies(): Enemy[] {
    const arr = this.own(this.state.enemies);
    this.state.enemies = arr;
    return arr;
  }

  items(): Item[] {
    const arr = this.own(this.state.items);
    this.state.items = arr;
    return arr;
  }

  interactibles(): Interactible[] {
    const arr = this.own(this.state.interactibles);
    this.state.interactibles = arr;
    return arr;
  }

  /** A writable survivor (the copy is put back in the state's survivors array). */
  survivor(id: string): Survivor {
    const arr = this.survivors();
    const index = arr.findIndex((s) => s.id === id);
    const current = arr[index];
    if (!current) throw new Error(`No survivor ${id}`);
    const copy = this.own(current);
    arr[index] = copy;
    return copy;
  }

  enemy(id: string): Enemy {
    const arr = this.enemies();
    const index = arr.findIndex((e) => e.id === id);
    const current = arr[index];
    if (!current) throw new Error(`No enemy ${id}`);
    const copy = this.own(current);
    arr[index] = copy;
    return copy;
  }

  /** The survivor's inventory, writable. */
  inventory(survivor: Survivor): Item[] {
    const arr = this.own(survivor.inventory);
    survivor.inventory = arr;
    return arr;
  }

  finish(): GameState {
    this.state.rng = this.rng.toState();
    return this.state;
  }
}
