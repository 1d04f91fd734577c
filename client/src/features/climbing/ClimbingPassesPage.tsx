import { useEffect, useState, type FormEvent } from 'react';
import type { ClimbingPass, ClimbingPasses } from '@site/contracts/climbing';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import './climbing.css';
import { LoadProblem } from '../../components/Loaded.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function usage({ usedThisMonth, allowance }: ClimbingPasses): string {
  const passes = (n: number) => `${n} guest ${n === 1 ? 'pass' : 'passes'}`;
  if (allowance === null) return `${passes(usedThisMonth)} used this month.`;
  return `${usedThisMonth} of ${passes(allowance)} used this month.`;
}

/** Guest passes: add one per guest; the month's count (and allowance, when set) is shown on top. */
export default function ClimbingPassesPage() {
  const passes = trpc.climbing.list.useQuery();
  const utils = trpc.useUtils();
  const [guest, setGuest] = useState('');
  const add = trpc.climbing.add.useMutation({
    onSuccess: () => {
      setGuest('');
      void utils.climbing.list.invalidate();
    },
  });
  const remove = trpc.climbing.remove.useMutation({
    // A refusal of the month's allowance no longer holds once a pass is removed.
    onSuccess: () => add.reset(),
    onError: (error) => window.alert(error.message),
    onSettled: () => void utils.climbing.list.invalidate(),
  });
  useEffect(() => {
    document.title = 'Climb Passes';
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ guest });
  };
  const confirmRemove = (pass: ClimbingPass) => {
    if (window.confirm(`Remove the pass for ${pass.guest}?`)) remove.mutate({ id: pass.id });
  };
  const data = passes.data;
  const full = data !== undefined && data.allowance !== null && data.usedThisMonth >= data.allowance;

  return (
    <main className="page climbing-page">
      <header className="page-hero">
        <h1>Climbing Guest Passes</h1>
        <p className="lead" role="status">
          {data ? usage(data) : 'Counting this month’s passes...'}
        </p>
      </header>
      <section className="card" aria-labelledby="add-guest-title">
        <h2 id="add-guest-title">Add a guest</h2>
        <form onSubmit={submit} className="climbing-form">
          <TextInput label="Guest" value={guest} onValueChange={setGuest} maxLength={100} required autoComplete="off" />
          <button type="submit" className="button primary" disabled={add.isPending}>
            Add
          </button>
        </form>
        <ErrorBubble message={add.error ? add.error.message : full ? 'This month’s passes are all used.' : null} />
      </section>
      <LoadProblem query={passes} what="the passes" />
      <ul className="climbing-cards" aria-label="Guest passes">
        {data?.guests.map((pass) => (
          <li key={pass.id} className="card climbing-card">
            <h2 className="climbing-guest">{pass.guest}</h2>
            <p className="card-subtitle">
              Added by {pass.addedBy ?? 'a former member'} on {dateFormat.format(new Date(pass.addedAt))}
            </p>
            {pass.canRemove && (
              <button type="button" className="button" aria-label={`Remove the pass for ${pass.guest}`} onClick={() => confirmRemove(pass)}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {data?.guests.length === 0 && <p>No guest passes yet.</p>}
    </main>
  );
}
