import { useState } from 'react';
import { TRADE_MAX_AMOUNT, type TradeOffer } from '@site/contracts/trade-game';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber, type NumberRules } from '../../components/number.ts';
import { LoadProblem } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';
import { useUpdateResources } from './resources.ts';

/** An offer moves at least one whole unit each way (the server's offerInput says the same). */
const offerAmountRules = (label: string): NumberRules => ({ label: `${label} amount`, whole: true, min: 1, max: TRADE_MAX_AMOUNT });

const describe = (offer: TradeOffer) => `${offer.give.amount} ${offer.give.name} for ${offer.want.amount} ${offer.want.name}`;

/** Offers between players: make one, accept someone else's, withdraw one's own. */
export function OffersTab({ resources }: { resources: string[] }) {
  const utils = trpc.useUtils();
  const updateResources = useUpdateResources();
  const offers = trpc.tradeGame.offers.useQuery(undefined, { refetchInterval: 5000 });
  const [give, setGive] = useState(resources[1] ?? '');
  const [giveAmount, setGiveAmount] = useState('1');
  const [want, setWant] = useState(resources[0] ?? '');
  const [wantAmount, setWantAmount] = useState('1');
  const [message, setMessage] = useState<string | null>(null);
  const refresh = (rows?: { name: string; img_src: string; amount: number }[]) => {
    updateResources(rows);
    void utils.tradeGame.offers.invalidate();
  };
  const make = trpc.tradeGame.makeOffer.useMutation({
    onSuccess: (offer) => {
      setMessage(`Offered ${describe(offer)}`);
      refresh();
    },
  });
  const accept = trpc.tradeGame.acceptOffer.useMutation({
    onSuccess: (result) => {
      setMessage('Offer accepted');
      refresh(result.rows);
    },
    onError: () => void utils.tradeGame.offers.invalidate(),
  });
  const withdraw = trpc.tradeGame.withdrawOffer.useMutation({
    onSuccess: (result) => {
      setMessage('Offer withdrawn');
      refresh(result.rows);
    },
  });
  const error = make.error ?? accept.error ?? withdraw.error;
  const giveParsed = parseNumber(giveAmount, offerAmountRules('Give'));
  const wantParsed = parseNumber(wantAmount, offerAmountRules('Want'));
  const clear = () => {
    setMessage(null);
    make.reset();
    accept.reset();
    withdraw.reset();
  };

  return (
    <div className="offers">
      <form
        className="card offer-form"
        aria-labelledby="offer-title"
        onSubmit={(event) => {
          event.preventDefault();
          clear();
          // The fields already say what is wrong; an empty one is sent and refused by the server with its own words.
          if (!giveParsed.ok || !wantParsed.ok) return;
          make.mutate({ give: { name: give, amount: giveParsed.value ?? 0 }, want: { name: want, amount: wantParsed.value ?? 0 } });
        }}
      >
        <h3 id="offer-title">Make an offer</h3>
        <div className="offer-fields">
          <ResourcePick label="Give" resources={resources} value={give} onChange={setGive} amount={giveAmount} onAmount={setGiveAmount} />
          <ResourcePick label="For" resources={resources} value={want} onChange={setWant} amount={wantAmount} onAmount={setWantAmount} />
        </div>
        <p className="small">What you offer is set aside until someone accepts or you withdraw the offer.</p>
        <button type="submit" className="button primary" disabled={make.isPending}>
          Make Offer
        </button>
      </form>
      <ErrorBubble message={error ? error.message : null} testId="offer-error" />
      {message && (
        <p role="status" className="saved-note">
          {message}
        </p>
      )}
      <LoadProblem query={offers} what="the offers" />
      <section aria-labelledby="open-offers-title">
        <h3 id="open-offers-title">Open offers</h3>
        {offers.data?.open.length === 0 && <p className="small">No other player has an open offer.</p>}
        <ul className="offer-list">
          {offers.data?.open.map((offer) => (
            <li key={offer.id} className="offer">
              <span>
                <strong>{offer.seller}</strong> offers {describe(offer)}
              </span>
              <button
                type="button"
                className="button"
                disabled={accept.isPending}
                aria-label={`Accept ${offer.seller}'s offer of ${describe(offer)}`}
                onClick={() => {
                  clear();
                  accept.mutate({ id: offer.id });
                }}
              >
                Accept
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="my-offers-title">
        <h3 id="my-offers-title">Your offers</h3>
        {offers.data?.mine.length === 0 && <p className="small">You have no open offers.</p>}
        <ul className="offer-list">
          {offers.data?.mine.map((offer) => (
            <li key={offer.id} className="offer">
              <span>{describe(offer)}</span>
              <button
                type="button"
                className="button"
                disabled={withdraw.isPending}
                aria-label={`Withdraw your offer of ${describe(offer)}`}
                onClick={() => {
                  clear();
                  withdraw.mutate({ id: offer.id });
                }}
              >
                Withdraw
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

type PickProps = {
  label: string;
  resources: string[];
  value: string;
  onChange: (value: string) => void;
  amount: string;
  onAmount: (value: string) => void;
};

function ResourcePick({ label, resources, value, onChange, amount, onAmount }: PickProps) {
  const id = `offer-${label.toLowerCase()}`;
  return (
    <div className="offer-pick">
      <NumberInput id={`${id}-amount`} rules={offerAmountRules(label)} value={amount} onValueChange={onAmount} />
      <div className="field">
        <label htmlFor={`${id}-resource`}>{label} resource</label>
        <select id={`${id}-resource`} value={value} onChange={(event) => onChange(event.target.value)}>
          {resources.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
