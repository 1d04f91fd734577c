import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';
import { MainTab } from './MainTab.tsx';
import { OffersTab } from './OffersTab.tsx';
import { TechTab } from './TechTab.tsx';
import { useResources } from './resources.ts';
import './trade-game.css';
import { LoadProblem } from '../../components/Loaded.tsx';

const TABS = ['Main', 'Tech', 'Player Trades'] as const;
type Tab = (typeof TABS)[number];
const tabId = (tab: Tab) => `trade-tab-${tab.toLowerCase().replace(' ', '-')}`;

/** /personal/trade-game: the player's resources, then the tabs Main, Tech and Player Trades, and Reset Data. */
export default function TradeGamePage() {
  const resources = useResources();
  const islands = trpc.tradeGame.islands.useQuery();
  const [tab, setTab] = useState<Tab>('Main');
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  useEffect(() => {
    document.title = 'Trade Game';
  }, []);

  const onTabKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length] ?? 'Main';
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <main className="page trade-page">
      <header className="page-hero">
        <h1>Trade Game</h1>
        <p className="lead">Sail between islands, buy low, sell high, and trade with other players.</p>
      </header>
      <section aria-labelledby="resources-title" className="card resources">
        <h2 id="resources-title">Your resources</h2>
        <ul className="resource-list">
          {resources.data?.rows.map((row) => (
            <li key={row.name} className="resource" data-testid={`resource-${row.name}`}>
              <img src={row.img_src} alt="" width={32} height={32} />
              <span className="resource-name">{row.name}</span>
              <span className="resource-amount">{row.amount}</span>
            </li>
          ))}
        </ul>
        {resources.data?.reset && <p className="small">A fresh game: you start with these.</p>}
      </section>
      <LoadProblem query={resources} what="your resources" />
      <LoadProblem query={islands} what="the islands" />

      <div className="trade-tabs-row">
        <div role="tablist" aria-label="Trade game" className="trade-tabs" onKeyDown={onTabKey}>
          {TABS.map((name) => (
            <button
              key={name}
              ref={(el) => {
                tabRefs.current[name] = el;
              }}
              type="button"
              role="tab"
              id={tabId(name)}
              aria-selected={tab === name}
              aria-controls="trade-panel"
              tabIndex={tab === name ? 0 : -1}
              className={tab === name ? 'selected' : undefined}
              onClick={() => setTab(name)}
            >
              {name}
            </button>
          ))}
        </div>
        <ResetData />
      </div>
      <div role="tabpanel" id="trade-panel" aria-labelledby={tabId(tab)} className="trade-panel">
        {tab === 'Main' && islands.data && (
          <MainTab myIsland={islands.data.myIsland} islands={islands.data.islands.map((i) => i.island_name)} />
        )}
        {tab === 'Tech' && <TechTab />}
        {tab === 'Player Trades' && resources.data && <OffersTab resources={resources.data.rows.map((r) => r.name)} />}
      </div>
    </main>
  );
}

/** Reset Data asks first; confirmed, it clears the player's game and the page starts a fresh one. */
function ResetData() {
  const utils = trpc.useUtils();
  const [asking, setAsking] = useState(false);
  const reset = trpc.tradeGame.reset.useMutation({
    onSuccess: async () => {
      setAsking(false);
      await utils.tradeGame.invalidate();
    },
  });
  if (!asking) {
    return (
      <button type="button" className="button reset-data" onClick={() => setAsking(true)}>
        Reset Data
      </button>
    );
  }
  return (
    <div className="reset-confirm" role="group" aria-label="Confirm reset">
      <span>Clear all your trade game data?</span>
      <button type="button" className="button danger" disabled={reset.isPending} onClick={() => reset.mutate()} autoFocus>
        Yes, reset
      </button>
      <button type="button" className="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
      <ErrorBubble message={reset.error ? reset.error.message : null} />
    </div>
  );
}
