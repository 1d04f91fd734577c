import type { Point, Tile } from '@site/game-engine';
import { TILE_SIZE, type Camera } from './camera.ts';
import type { Effect, Scene, Token } from './scene.ts';
import { badgeLabels } from './badges.ts';

export type Highlight = { tiles: readonly Point[]; tone: 'move' | 'look' | 'target' };

export type Theme = { background: string; accent: string; link: string; error: string; foreground: string };

export type DrawInput = {
  scene: Scene;
  tiles: readonly Tile[];
  mapWidth: number;
  mapHeight: number;
  camera: Camera;
  /** CSS pixels of the canvas. */
  width: number;
  height: number;
  dpr: number;
  activeId: string | null;
  highlight: Highlight | null;
  cursor: Point | null;
  /** A tile chosen in a sub-panel (look result, attack square). */
  chosen: Point | null;
  theme: Theme;
  now: number;
};

const FLOOR: Record<string, string> = {
  white: '#3a4250',
  gray: '#1b1f27',
  brown: '#5a4632',
  cyan: '#2f6f80',
  red: '#5b2a2e',
  gold: '#6b5a22',
};

const ENEMY_COLOURS: Record<string, string> = { drone: '#d9534f', runner: '#f0883e', bloater: '#a557c9' };
const HIGHLIGHT: Record<Highlight['tone'], { fill: string; stroke: string }> = {
  move: { fill: 'rgba(64, 140, 255, 0.38)', stroke: 'rgba(120, 180, 255, 0.95)' },
  look: { fill: 'rgba(255, 230, 120, 0.16)', stroke: 'rgba(255, 230, 120, 0.55)' },
  target: { fill: 'rgba(255, 80, 80, 0.26)', stroke: 'rgba(255, 110, 110, 0.9)' },
};

const ease = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * (2 - t));

/** Draws the whole map. Cheap enough to run every frame for a level-sized map (a few hundred fills). */
export function drawMap(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { camera, dpr, theme, now } = input;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, input.width, input.height);
  ctx.setTransform(dpr * camera.zoom, 0, 0, dpr * camera.zoom, dpr * camera.offsetX, dpr * camera.offsetY);

  // Only the tiles in view are drawn.
  const x0 = Math.max(0, Math.floor(-camera.offsetX / (TILE_SIZE * camera.zoom)));
  const y0 = Math.max(0, Math.floor(-camera.offsetY / (TILE_SIZE * camera.zoom)));
  const x1 = Math.min(input.mapWidth - 1, Math.floor((input.width - camera.offsetX) / (TILE_SIZE * camera.zoom)));
  const y1 = Math.min(input.mapHeight - 1, Math.floor((input.height - camera.offsetY) / (TILE_SIZE * camera.zoom)));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const tile = input.tiles[y * input.mapWidth + x];
      if (tile) drawTile(ctx, tile);
    }
  }

  if (input.highlight) {
    const colours = HIGHLIGHT[input.highlight.tone];
    ctx.lineWidth = 3;
    for (const p of input.highlight.tiles) {
      ctx.fillStyle = colours.fill;
      ctx.fillRect(p.x * TILE_SIZE + 2, p.y * TILE_SIZE + 2, TILE_SIZE - 4, TILE_SIZE - 4);
      ctx.strokeStyle = colours.stroke;
      ctx.strokeRect(p.x * TILE_SIZE + 3.5, p.y * TILE_SIZE + 3.5, TILE_SIZE - 7, TILE_SIZE - 7);
    }
  }

  for (const thing of input.scene.interactibles) drawInteractible(ctx, thing.kind, thing.x, thing.y);
  const itemCounts = new Map<string, { x: number; y: number; n: number }>();
  for (const item of input.scene.items) {
    if (item.x === null || item.y === null) continue;
    const key = `${item.x},${item.y}`;
    const entry = itemCounts.get(key) ?? { x: item.x, y: item.y, n: 0 };
    entry.n += 1;
    itemCounts.set(key, entry);
  }
  for (const entry of itemCounts.values()) drawItem(ctx, entry.x, entry.y, entry.n);

  drawTokens(ctx, input.scene.tokens, input.activeId, theme, now);
  for (const effect of input.scene.effects) if (effect.until > now && effect.start <= now) drawEffect(ctx, effect, now, theme);

  if (input.chosen) outline(ctx, input.chosen, theme.link, 4, []);
  if (input.cursor) outline(ctx, input.cursor, theme.foreground, 3, [8, 6]);
}

function outline(ctx: CanvasRenderingContext2D, p: Point, colour: string, width: number, dash: number[]): void {
  ctx.save();
  ctx.setLineDash(dash);
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.strokeRect(p.x * TILE_SIZE + width / 2, p.y * TILE_SIZE + width / 2, TILE_SIZE - width, TILE_SIZE - width);
  ctx.restore();
}

function drawTile(ctx: CanvasRenderingContext2D, tile: Tile): void {
  const px = tile.x * TILE_SIZE;
  const py = tile.y * TILE_SIZE;
  ctx.fillStyle = FLOOR[tile.color] ?? '#444';
  ctx.fillRect(px, py, TILE_SIZE, TILE_SIZE);
  switch (tile.overlay) {
    case 'wall':
      ctx.fillStyle = '#262b35';
      ctx.fillRect(px + 2, py + 2, TILE_SIZE - 4, TILE_SIZE / 2 - 3);
      ctx.fillRect(px + 2, py + TILE_SIZE / 2 + 1, TILE_SIZE / 2 - 3, TILE_SIZE / 2 - 3);
      ctx.fillRect(px + TILE_SIZE / 2 + 1, py + TILE_SIZE / 2 + 1, TILE_SIZE / 2 - 3, TILE_SIZE / 2 - 3);
      return;
    case 'glass':
      ctx.strokeStyle = 'rgba(200, 245, 255, 0.7)';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(px + 14, py + 50);
      ctx.lineTo(px + 30, py + 14);
      ctx.moveTo(px + 32, py + 52);
      ctx.lineTo(px + 48, py + 18);
      ctx.stroke();
      break;
    case 'rubble':
      ctx.fillStyle = '#7a6248';
      for (const [dx, dy, r] of [[16, 18, 7], [42, 24, 9], [26, 44, 8], [50, 48, 5]] as const) {
        ctx.beginPath();
        ctx.arc(px + dx, py + dy, r, 0, Math.PI * 2);
        ctx.fill();
      }
      break;
    case 'vent':
      ctx.strokeStyle = '#c45a5a';
      ctx.lineWidth = 3;
      for (let i = 0; i < 4; i++) {
        ctx.beginPath();
        ctx.moveTo(px + 14, py + 18 + i * 9);
        ctx.lineTo(px + 50, py + 18 + i * 9);
        ctx.stroke();
      }
      break;
    case 'stairs':
    case 'entrance':
      ctx.fillStyle = tile.overlay === 'stairs' ? '#e8c547' : '#9c8a4a';
      for (let i = 0; i < 4; i++) ctx.fillRect(px + 10 + i * 8, py + 46 - i * 10, TILE_SIZE - 20 - i * 8, 6);
      break;
    default:
      break;
  }
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.35)';
  ctx.lineWidth = 1;
  ctx.strokeRect(px + 0.5, py + 0.5, TILE_SIZE - 1, TILE_SIZE - 1);
}

function tokenPath(ctx: CanvasRenderingContext2D, cx: number, cy: number, r: number, square: boolean): void {
  if (square) roundRect(ctx, cx - r, cy - r, r * 2, r * 2, r * 0.45);
  else {
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
  }
}

function badge(ctx: CanvasRenderingContext2D, cx: number, cy: number, r: number, fill: string, letter: string, square = false): void {
  tokenPath(ctx, cx, cy, r, square);
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.fillStyle = '#fff';
  // Two characters (A1) get a smaller font to fit the token.
  ctx.font = `bold ${Math.round(r * (letter.length > 1 ? 0.8 : 1.1))}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(letter, cx, cy + 1);
}

function drawInteractible(ctx: CanvasRenderingContext2D, kind: string, x: number, y: number): void {
  const px = x * TILE_SIZE;
  const py = y * TILE_SIZE;
  switch (kind) {
    case 'cryochamber':
    case 'brokenCryochamber': {
      ctx.fillStyle = kind === 'cryochamber' ? 'rgba(110, 220, 255, 0.85)' : 'rgba(130, 140, 150, 0.8)';
      roundRect(ctx, px + 8, py + 6, TILE_SIZE - 16, TILE_SIZE - 12, 14);
      ctx.fill();
      ctx.strokeStyle = kind === 'cryochamber' ? '#e8fbff' : '#3b4048';
      ctx.lineWidth = 2;
      ctx.stroke();
      if (kind === 'brokenCryochamber') {
        ctx.beginPath();
        ctx.moveTo(px + 20, py + 12);
        ctx.lineTo(px + 32, py + 30);
        ctx.lineTo(px + 26, py + 38);
        ctx.lineTo(px + 40, py + 54);
        ctx.stroke();
      }
      break;
    }
    case 'upgradeStation':
      ctx.fillStyle = '#4a6b3f';
      roundRect(ctx, px + 8, py + 8, TILE_SIZE - 16, TILE_SIZE - 16, 8);
      ctx.fill();
      badge(ctx, px + 32, py + 32, 14, '#7fbf5f', '⚙');
      break;
    case 'terminal':
      ctx.fillStyle = '#222831';
      ctx.fillRect(px + 12, py + 14, TILE_SIZE - 24, 26);
      ctx.fillStyle = '#3c5a4a';
      ctx.fillRect(px + 15, py + 17, TILE_SIZE - 30, 20);
      ctx.fillStyle = '#222831';
      ctx.fillRect(px + 26, py + 40, 12, 10);
      break;
    default:
      break;
  }
}

function drawItem(ctx: CanvasRenderingContext2D, x: number, y: number, n: number): void {
  const cx = x * TILE_SIZE + TILE_SIZE - 12;
  const cy = y * TILE_SIZE + 12;
  ctx.beginPath();
  ctx.moveTo(cx, cy - 9);
  ctx.lineTo(cx + 9, cy);
  ctx.lineTo(cx, cy + 9);
  ctx.lineTo(cx - 9, cy);
  ctx.closePath();
  ctx.fillStyle = '#f4d35e';
  ctx.fill();
  ctx.strokeStyle = '#5c4a00';
  ctx.lineWidth = 1.5;
  ctx.stroke();
  if (n > 1) {
    ctx.fillStyle = '#1b1f27';
    ctx.font = 'bold 10px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(n), cx, cy + 1);
  }
}

/** Slot centres (in tile fractions) and radius for n tokens sharing a tile. */
function slots(n: number): { r: number; at: [number, number][] } {
  if (n <= 1) return { r: 0.3, at: [[0.5, 0.46]] };
  if (n === 2) return { r: 0.21, at: [[0.28, 0.42], [0.72, 0.42]] };
  if (n <= 4) return { r: 0.155, at: [[0.27, 0.24], [0.73, 0.24], [0.27, 0.69], [0.73, 0.69]] };
  const at: [number, number][] = [];
  for (let i = 0; i < 9; i++) at.push([0.2 + (i % 3) * 0.3, 0.17 + Math.floor(i / 3) * 0.3]);
  return { r: 0.12, at };
}

function drawTokens(ctx: CanvasRenderingContext2D, tokens: readonly Token[], activeId: string | null, theme: Theme, now: number): void {
  const labels = badgeLabels(tokens);
  const byTile = new Map<string, Token[]>();
  for (const t of tokens) {
    const key = `${t.x},${t.y}`;
    const list = byTile.get(key) ?? [];
    list.push(t);
    byTile.set(key, list);
  }
  for (const list of byTile.values()) {
    list.sort((a, b) => (a.side === b.side ? 0 : a.side === 'survivor' ? -1 : 1));
    const layout = slots(list.length);
    list.forEach((t, i) => {
      const slot = layout.at[Math.min(i, layout.at.length - 1)] ?? [0.5, 0.5];
      const overflow = i >= layout.at.length;
      if (overflow) return;
      let cx = (t.x + slot[0]) * TILE_SIZE;
      let cy = (t.y + slot[1]) * TILE_SIZE;
      const progress = t.moveMs > 0 ? ease((now - t.moveStart) / t.moveMs) : 1;
      if (progress < 1) {
        cx = (t.fromX + 0.5 + (t.x - t.fromX) * progress) * TILE_SIZE + (slot[0] - 0.5) * TILE_SIZE * progress;
        cy = (t.fromY + 0.5 + (t.y - t.fromY) * progress) * TILE_SIZE + (slot[1] - 0.5) * TILE_SIZE * progress;
      }
      const grow = Math.min(1, Math.max(0.05, (now - t.bornAt) / 250));
      const r = layout.r * TILE_SIZE * grow;
      drawToken(ctx, t, labels.get(t.id) ?? '?', cx, cy, r, t.id === activeId, theme, now);
    });
    if (list.length > layout.at.length) {
      const first = list[0];
      if (first) {
        ctx.fillStyle = '#fff';
        ctx.font = 'bold 11px system-ui, sans-serif';
        ctx.textAlign = 'right';
        ctx.fillText(`+${list.length - layout.at.length}`, (first.x + 1) * TILE_SIZE - 3, (first.y + 1) * TILE_SIZE - 4);
      }
    }
  }
}

function drawToken(ctx: CanvasRenderingContext2D, t: Token, label: string, cx: number, cy: number, r: number, active: boolean, theme: Theme, now: number): void {
  const downed = t.hp <= 0;
  if (active) {
    ctx.beginPath();
    ctx.arc(cx, cy, r + 5, 0, Math.PI * 2);
    ctx.strokeStyle = '#ffd84a';
    ctx.lineWidth = 3;
    ctx.stroke();
  }
  const fill = t.side === 'survivor' ? (downed ? '#5f6670' : '#2f7de1') : (ENEMY_COLOURS[t.kind] ?? '#d9534f');
  // Survivors are round, monsters square, so a Bram and a bloater never look alike.
  const square = t.side === 'enemy';
  tokenPath(ctx, cx, cy + 2, r, square);
  ctx.fillStyle = 'rgba(0, 0, 0, 0.45)';
  ctx.fill();
  badge(ctx, cx, cy, r, now < t.hitUntil ? '#ffffff' : fill, label, square);
  if (now < t.hitUntil) {
    ctx.fillStyle = fill;
    ctx.font = `bold ${Math.round(r * 1.1)}px system-ui, sans-serif`;
    ctx.fillText(label, cx, cy + 1);
  }
  ctx.lineWidth = 2;
  ctx.strokeStyle = t.side === 'survivor' ? '#cfe3ff' : '#2a0d0d';
  tokenPath(ctx, cx, cy, r, square);
  ctx.stroke();
  // Health bar under the token.
  const w = Math.max(16, r * 2.1);
  const h = Math.max(4, r * 0.28);
  const bx = cx - w / 2;
  const by = cy + r + 3;
  ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
  ctx.fillRect(bx - 1, by - 1, w + 2, h + 2);
  const frac = t.hpMax > 0 ? Math.max(0, Math.min(1, t.hp / t.hpMax)) : 0;
  ctx.fillStyle = frac > 0.6 ? '#4cc16a' : frac > 0.3 ? '#e3b341' : theme.error;
  ctx.fillRect(bx, by, w * frac, h);
}

function drawEffect(ctx: CanvasRenderingContext2D, effect: Effect, now: number, theme: Theme): void {
  const life = (now - effect.start) / (effect.until - effect.start);
  if (effect.type === 'shot') {
    ctx.save();
    ctx.globalAlpha = 1 - life;
    ctx.strokeStyle = effect.enemy ? '#ff5d5d' : '#ffe27a';
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.moveTo((effect.fromX + 0.5) * TILE_SIZE, (effect.fromY + 0.5) * TILE_SIZE);
    ctx.lineTo((effect.x + 0.5) * TILE_SIZE, (effect.y + 0.5) * TILE_SIZE);
    ctx.stroke();
    ctx.restore();
    return;
  }
  ctx.save();
  ctx.globalAlpha = Math.max(0, 1 - life);
  ctx.font = 'bold 20px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#000';
  const x = (effect.x + 0.5) * TILE_SIZE;
  const y = (effect.y + 0.3) * TILE_SIZE - life * 24;
  ctx.strokeText(effect.text, x, y);
  ctx.fillStyle = effect.color === 'damage' ? theme.error : effect.color === 'miss' ? '#cfd8e3' : theme.link;
  ctx.fillText(effect.text, x, y);
  ctx.restore();
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}
