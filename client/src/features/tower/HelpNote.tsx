import { useEffect, useRef } from 'react';

/**
 * The how-to note behind the '?' button. Its Back button stays in view at the top of the note (and
 * has the focus when it opens), so nobody scrolls through the whole text to leave; Escape closes it.
 */
export function HelpNote({ onBack }: { onBack: () => void }) {
  const back = useRef<HTMLButtonElement>(null);
  // Focus once, on opening: not again whenever the parent passes a new onBack.
  useEffect(() => back.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onBack();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onBack]);
  return (
    <section className="tower-help card" aria-labelledby="tower-help-title" data-testid="tower-help">
      <header className="tower-help-header">
        {/* The page's own heading while it shows (the game under it is hidden). */}
        <h1 id="tower-help-title">How to play</h1>
        <button ref={back} type="button" className="button primary" onClick={onBack}>
          Back
        </button>
      </header>
      <p>
        Your survivors woke up at the bottom of a tower full of monsters. Get everyone who is still standing onto the stairs (the gold steps) and
        climb. Reach the stairs of the top floor to win. If nobody is left above 0 health after the enemies' turn, the game is lost.
      </p>
      <h2>Turns</h2>
      <ul>
        <li>
          Each round your survivors act first, in any order, then the enemies. Every survivor has 3 actions, shown as dots next to its name. Switch
          survivors with <kbd>&lt;</kbd> <kbd>&gt;</kbd> or <kbd>Tab</kbd>; switching is free.
        </li>
        <li>One action buys 2 steps or 2 quick attacks. Leftovers show on the Move and Attack buttons and last until the end of the round.</li>
        <li>Pass gives up the rest of a survivor's actions. When nobody has anything left, the enemies move.</li>
        <li>
          Enemy turn: a new wave crawls out of the red vents, then each monster attacks a survivor on its tile or walks towards the nearest
          survivor. Drones are slow, runners move 2 tiles, bloaters are tough. Hits below 0 health kill; at exactly 0 a survivor is downed.
        </li>
      </ul>
      <h2>Actions</h2>
      <ul>
        <li>
          <strong>Move</strong>: the reachable tiles light up blue. A step costs 1 (rubble 2). Walls and glass block you.
        </li>
        <li>
          <strong>Attack</strong>: pick a weapon card, then a red square in range and sight, then a target (the crosshair). The revolver costs a full
          action, the burst pistol fires 3 shots, fists and lasers cost a quick attack. Enemies may dodge.
        </li>
        <li>
          <strong>Inventory</strong>: hover a card for details; right-click it (or press its number) to Reload (one quick attack) or Drop it on the
          floor. Up to 4 items. Spend XP on the ocular lasers augment here.
        </li>
        <li>
          <strong>Look</strong>: the tiles you can see light up; choose one to list what is there. Looking is free.
        </li>
        <li>
          <strong>Interact</strong>: use things on or next to you: the cryochamber (wakes a new survivor, 1 action), the upgrade station (3 XP and
          1 action make a weapon better), the stairs (everyone must stand on them), items on your tile (pick up).
        </li>
      </ul>
      <h2>Keys</h2>
      <dl className="tower-keys">
        <dt>w a s d</dt>
        <dd>move (or move the tile cursor while looking or aiming)</dd>
        <dt>tab</dt>
        <dd>next survivor (shift+tab leaves the map)</dd>
        <dt>space</dt>
        <dd>select the tile under the cursor or the first target</dd>
        <dt>f</dt>
        <dd>attack</dd>
        <dt>c</dt>
        <dd>look</dd>
        <dt>e</dt>
        <dd>interact</dd>
        <dt>q</dt>
        <dd>inventory</dd>
        <dt>enter</dt>
        <dd>pass</dd>
        <dt>1 – 4</dt>
        <dd>choose a card or a list entry</dd>
        <dt>escape</dt>
        <dd>back</dd>
      </dl>
      <p>
        The mouse wheel zooms, holding the right button drags the map. Your game is kept in this browser: reload and choose Continue. The seed is
        shown at the top; the same seed and moves always play out the same, and Export replay saves a file that <code>npm run sim -- --replay</code>{' '}
        checks.
      </p>
    </section>
  );
}
