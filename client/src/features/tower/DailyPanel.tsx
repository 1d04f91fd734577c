import { useEffect, useRef, useState, type ReactNode } from 'react';
import { shiftDailyDate } from '@site/game-engine';
import { DAILY_PAST_DAYS, DAILY_PERIODS, type DailyPeriod, type DailyResult, type DailyStanding } from '@site/contracts/tower-daily';
import { trpc } from '../../lib/trpc.ts';
import type { Game } from './useTowerGame.ts';
import { LoadProblem } from '../../components/Loaded.tsx';

const DAILY_SEED = /^daily-(\d{4}-\d{2}-\d{2})$/;

/** The day of a daily-tower game, from its seed (`daily-YYYY-MM-DD`); null for any other game. */
export function dailyDateOf(seed: string): string | null {
  return DAILY_SEED.exec(seed)?.[1] ?? null;
}

type Column<T> = { label: string; cell: (row: T) => ReactNode };

/** A ranked table of members (a day's results, a period's standings), one row per member. */
function RankTable<T extends { rank: number; member: string }>({ rows, columns, testId, empty }: { rows: readonly T[]; columns: Column<T>[]; testId: string; empty: string }) {
  if (rows.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="table-scroll">
      <table className="tower-daily-table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Member</th>
            {columns.map((c) => (
              <th scope="col" key={c.label}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.member}>
              <td>{r.rank}</td>
              <td>{r.member}{'won' in r && r.won ? ' (escaped)' : ''}</td>
              {columns.map((c) => (
                <td key={c.label}>{c.cell(r)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const DAY_COLUMNS: Column<DailyResult>[] = [
  { label: 'Rounds', cell: (r) => r.rounds },
  { label: 'Floors', cell: (r) => r.floors },
];

const STANDING_COLUMNS: Column<DailyStanding>[] = [
  { label: 'Days', cell: (r) => r.days },
  { label: 'Escaped', cell: (r) => r.wins },
  { label: 'Floors', cell: (r) => r.floors },
  { label: 'Rounds', cell: (r) => r.rounds },
];

/** A day's table: each member's best verified game of the day. */
export function DailyTable({ table, empty = "Nobody has finished today's tower yet." }: { table: readonly DailyResult[]; empty?: string }) {
  return <RankTable rows={table} columns={DAY_COLUMNS} testId="daily-table" empty={empty} />;
}

/** On the start screen: today's tower (one seed for every member) and its table. */
export function DailyCard({ onPlay }: { onPlay: (seed: string, unranked?: boolean) => void }) {
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
          <DailyLeaderboardView />
          <PastDailies today={today.data.date} onPlay={(seed) => onPlay(seed, true)} />
        </>
      ) : today.isPending && today.fetchStatus === 'fetching' ? (
        <p className="muted">Loading today's tower…</p>
      ) : null}
    </section>
  );
}

const PERIOD_LABELS: Record<DailyPeriod, string> = { week: 'This week', month: 'This month' };

/** The family leaderboard of the week or the month, from the server's verified daily results. */
function DailyLeaderboardView() {
  const [period, setPeriod] = useState<DailyPeriod>('week');
  const board = trpc.towerDaily.leaderboard.useQuery({ period }, { refetchOnWindowFocus: false });
  return (
    <div className="tower-daily-leaderboard" data-testid="daily-leaderboard">
      <h3>Family leaderboard</h3>
      <div className="tower-row" role="group" aria-label="Leaderboard period">
        {DAILY_PERIODS.map((p) => (
          <button key={p} type="button" className={p === period ? 'button primary' : 'button'} aria-pressed={p === period} onClick={() => setPeriod(p)}>
            {PERIOD_LABELS[p]}
          </button>
        ))}
      </div>
      <LoadProblem query={board} what="the leaderboard" />
      {board.data ? (
        <>
          <p className="muted">
            {board.data.from} to {board.data.to}: each member's best verified game of each day. Most days escaped, then most floors, then fewest rounds.
          </p>
          <RankTable rows={board.data.table} columns={STANDING_COLUMNS} testId="leaderboard-table" empty="No verified daily games in this period yet." />
        </>
      ) : null}
    </div>
  );
}

/** The calendar of the past dailies: each day's verified table, and the day's tower to play unranked. */
function PastDailies({ today, onPlay }: { today: string; onPlay: (seed: string) => void }) {
  const days = Array.from({ length: DAILY_PAST_DAYS }, (_, i) => shiftDailyDate(today, -(i + 1)));
  const [chosen, setChosen] = useState<string | null>(null);
  const day = trpc.towerDaily.day.useQuery({ date: chosen ?? today }, { enabled: chosen !== null, refetchOnWindowFocus: false });
  return (
    <div className="tower-daily-past" data-testid="past-dailies">
      <h3>Past dailies</h3>
      <p className="muted">Play any of the last {DAILY_PAST_DAYS} days' towers again, unranked: only a game of today's tower enters the tables.</p>
      <div className="tower-daily-calendar" role="group" aria-label={`The last ${DAILY_PAST_DAYS} days`}>
        {days.map((d) => (
          <button
            key={d}
            type="button"
            className={d === chosen ? 'button primary' : 'button'}
            aria-pressed={d === chosen}
            aria-label={dayLabel(d)}
            data-date={d}
            onClick={() => setChosen(d)}
          >
            {dayShort(d)}
          </button>
        ))}
      </div>
      {chosen ? (
        <div className="tower-daily-day" data-testid="past-daily">
          <h4>{dayLabel(chosen)}</h4>
          <LoadProblem query={day} what={`the tower of ${chosen}`} />
          {day.data ? <DailyTable table={day.data.table} empty="Nobody finished this day's tower." /> : null}
          <button type="button" className="button" onClick={() => onPlay(`daily-${chosen}`)}>
            Play {chosen} unranked
          </button>
        </div>
      ) : null}
    </div>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function dayShort(date: string): string {
  return `${Number(date.slice(8))} ${MONTHS[Number(date.slice(5, 7)) - 1] ?? ''}`;
}

function dayLabel(date: string): string {
  return `${WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] ?? ''} ${dayShort(date)} ${date.slice(0, 4)}`;
}

/** On the end screen of a past daily played from the calendar: it is not sent anywhere. */
export function DailyUnranked({ date }: { date: string }) {
  return (
    <p className="muted" data-testid="daily-unranked">
      The tower of {date}, played unranked: past dailies do not enter the tables.
    </p>
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
