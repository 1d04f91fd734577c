import { useState, type CSSProperties } from 'react';
import type { IslandData, IslandItem } from '@site/contracts/trade-game';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useUpdateResources } from './resources.ts';
import { LoadProblem } from '../../components/Loaded.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { amountOf, amountRules, basketLines, basketProblem, lineKey, signed, totals, type Amounts, type Side } from './basket.ts';

/** The island chooser and the chosen island's market, in that island's colours. */
export function MainTab({ myIsland, islands }: { myIsland: string; islands: string[] }) {
  const [chosen, setChosen] = useState(myIsland);
  const island = trpc.tradeGame.island.useQuery({ island: chosen });
  return (
    <div className="trade-main">
      <div className="field island-chooser">
        <label htmlFor="island-chooser">Island</label>
        <select id="island-chooser" value={chosen} onChange={(event) => setChosen(event.target.value)}>
          {islands.map((name) => (
            <option key={name} value={name}>
              {name}
              {name === myIsland ? ' (your island)' : ''}
            </option>
          ))}
        </select>
      </div>
      <LoadProblem query={island} what="the island's market" />
      {island.data && <Market key={island.data.island_name} island={island.data} />}
    </div>
  );
}

function Market({ island }: { island: IslandData }) {
  const utils = trpc.useUtils();
  const updateResources = useUpdateResources();
  const [amounts, setAmounts] = useState<Amounts>({});
  const [done, setDone] = useState<string | null>(null);
  const trade = trpc.tradeGame.trade.useMutation({
    onSuccess: (result) => {
      utils.tradeGame.island.setData({ island: island.island_name }, result.island);
      updateResources(result.rows);
      setAmounts({});
      setDone(`Trade done: ${signed(result.total)} Gold`);
    },
  });
  const sums = totals(island, amounts);
  const lines = basketLines(island, amounts);
  const problem = basketProblem(island, amounts);
  const colours = {
    '--island-accent': island.accentColor,
    '--island-fg': island.foregroundColor,
    '--island-menu': island.menuColor,
  } as CSSProperties;
  const change = (side: Side, name: string, value: string) => {
    setDone(null);
    trade.reset();
    setAmounts((old) => ({ ...old, [lineKey(side, name)]: value }));
  };

  return (
    <section className="island" style={colours} aria-labelledby="island-title">
      <h2 id="island-title">{island.island_name}</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (lines.length > 0 && problem === null) trade.mutate({ island: island.island_name, lines });
        }}
      >
        <div className="market-lists">
          <ItemTable title="Buy here" side="buy" items={island.data.buyList} amounts={amounts} onChange={change} total={sums.buy} />
          <ItemTable title="Sell here" side="sell" items={island.data.sellList} amounts={amounts} onChange={change} total={sums.sell} />
        </div>
        <p className="basket-total" aria-live="polite">
          Total: {signed(sums.net)} Gold <span className="small">(buying {sums.buy}, selling {sums.sell}, {sums.units} units)</span>
        </p>
        <ErrorBubble message={problem ?? (trade.error ? trade.error.message : null)} testId="trade-error" />
        <div className="link-row">
          <button type="submit" className="button primary" disabled={trade.isPending || lines.length === 0 || problem !== null}>
            {trade.isPending ? 'Trading...' : 'Trade'}
          </button>
          {done && (
            <span role="status" className="saved-note">
              {done}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

type TableProps = {
  title: string;
  side: Side;
  items: IslandItem[];
  amounts: Amounts;
  total: number;
  onChange: (side: Side, name: string, value: string) => void;
};

function ItemTable({ title, side, items, amounts, total, onChange }: TableProps) {
  return (
    <div className="market-list">
      <h3>{title}</h3>
      <table className="market-table">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Price</th>
            <th scope="col">Amount</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const amount = amountOf(amounts, side, item.name);
            return (
              <tr key={item.name}>
                <th scope="row">
                  <span className="item-name">
                    <img src={item.img_src} alt="" width={24} height={24} />
                    {item.name}
                  </span>
                </th>
                <td>{item.price ?? '—'}</td>
                <td>
                  <NumberInput
                    compact
                    className="amount-input"
                    rules={amountRules(side, item.name)}
                    value={amounts[lineKey(side, item.name)] ?? ''}
                    placeholder="0"
                    onValueChange={(value) => onChange(side, item.name, value)}
                  />
                </td>
                <td data-testid={`value-${side}-${item.name}`}>{(item.price ?? 0) * amount}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {side === 'buy' ? 'Cost' : 'Earnings'}
            </th>
            <td>{total}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
