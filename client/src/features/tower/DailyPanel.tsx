import { useEffect, useRef } from 'react';
import type { DailyResult } from '@site/contracts/tower-daily';
import { trpc } from '../../lib/trpc.ts';
import type { Game } from './useTowerGame.ts';
import { LoadProblem } from '../../components/Loaded.tsx';

const DAILY_SEED = /^daily-(\d{4}-\d{2}-\d{2})$/;

/** The day of a daily-tower game, from its seed (`daily-YYYY-MM-DD`); null for any other game. */
export function dailyDateOf(seed: string): string | null {
  return DAILY_SEED.exec(seed)?.[1] ?? null;
}

/** Today's table: each member's best verified game of the day. */
export function DailyTable({ table }: { table: readonly DailyResult[] }) {
  if (table.length === 0) return <p className="muted">Nobody has finished today's tower yet.</p>;
  return (
    <div className="table-scroll">
      <table className="tower-daily-table" data-testid="daily-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Member</th>
            <th scope="col">Rounds</th>
            <th scope="col">Floors</th>
          </tr>
        </thead>
        <tbody>
          {table.map((r) => (
            <tr key={r.member}>
              <td>{r.rank}</td>
              <td>
                {r.member}
                {r.won ? ' (escaped)' : ''}
              </td>
              <td>{r.rounds}</td>
              <td>{r.floors}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** On the start screen: today's tower (one seed for every member) and its table. */
export function DailyCard({ onPlay }: { onPlay: (seed: string) => void }) {
  const today = trpc.towerDaily.today.useQuery(undefined, { refetchOnWindowFocus: false });
  return (
    <section className="card tower-daily" aria-labelledby="tower-daily-title" data-testid="daily-card">
      <h2 id="tower-daily-title">Daily tower</h2>
      <p>Everyone plays the same tower today. Your best finished game counts, checked by the server's own replay.</p>
      <LoadProblem query={today} what="today's tower" />
      {today.data ? (
        <>
          <div className="tower-row">
            <button type="button" className="button primary" onClick={() => onPlay(today.data.seed)}>
              Play today's tower
            </button>
            <span className="muted">{today.data.date} (UTC)</span>
          </div>
          <h3>Today's table</h3>
          <DailyTable table={today.data.table} />
        </>
      ) : today.isPending && today.fetchStatus === 'fetching' ? (
        <p className="muted">Loading today's tower…</p>
      ) : null}
    </section>
  );
}

/** On the end screen of a daily game: sends the action log once; the server replays it and answers the result. */
export function DailySubmit({ game, date }: { game: Game; date: string }) {
  const utils = trpc.useUtils();
  const submit = trpc.towerDaily.submit.useMutation({ onSuccess: () => void utils.towerDaily.today.invalidate() });
  const sent = useRef(false);
  const { mutate } = submit;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate({ date, actions: game.actions });
  }, [mutate, date, game.actions]);

  return (
    <div className="tower-daily-result" data-testid="daily-result">
      {submit.isPending ? <p role="status">Sending your game to the daily table…</p> : null}
      {submit.error ? (
        <div>
          <p className="error-text" role="alert">
            Not counted: {submit.error.message}
          </p>
          <button type="button" className="button" onClick={() => submit.mutate({ date, actions: game.actions })}>
            Try again
          </button>
        </div>
      ) : null}
      {submit.data ? (
        <>
          <p role="status">
            Counted for {submit.data.today.date}: {submit.data.result.rounds} rounds, {submit.data.result.floors} {submit.data.result.floors === 1 ? 'floor' : 'floors'}
            {submit.data.best ? ' — your best today.' : ' (your earlier game today was better).'}
          </p>
          <DailyTable table={submit.data.today.table} />
        </>
      ) : null}
    </div>
  );
}
