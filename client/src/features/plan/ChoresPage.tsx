import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { CHORE_DEFAULT_POINTS, CHORE_LIMITS, WEEKDAY_NAMES, choreMessages, type Chore, type ChoreEvery, type ChoreWho } from '@site/contracts/plan';
import { ChangeMessages } from '../../components/ChangeMessages.tsx';
import { LoadedTable } from '../../components/LoadedTable.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { Loaded, type LoadedQuery } from '../../components/Loaded.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber, type NumberRules } from '../../components/number.ts';
import { SyncStatus } from '../../components/SyncStatus.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { useLive } from '../../lib/live.ts';
import { errorMessage } from '../../lib/offline-queue.ts';
import { trpc } from '../../lib/trpc.ts';
import { useOfflineQueue } from '../../lib/use-offline-queue.ts';
import { describeChoreOutcome, waitingChores } from './chores-offline.ts';
import { dayLabel, localToday } from './plan-dates.ts';
import { myWeek, myWeekStarts } from './my-week.ts';
import { SelectField } from './SelectField.tsx';
import './plan.css';

/** 'Every 3 days', 'Mon, Thu', 'Monthly on the 1st'. */
function scheduleText(every: ChoreEvery): string {
  if ('days' in every) return every.days === 1 ? 'Every day' : `Every ${every.days} days`;
  if ('weekdays' in every) return `Weekly: ${every.weekdays.map((d) => WEEKDAY_NAMES[d - 1]!.slice(0, 3)).join(', ')}`;
  return `Monthly on day ${every.monthDay}`;
}

function whoText(chore: Chore): string {
  if ('anyone' in chore.who) return 'Anyone';
  if ('one' in chore.who) return chore.who.one;
  return `Turns: ${chore.who.turns.join(' → ')}`;
}

/** The chore form's numbers, refused with the server's words ("2,5" is never sent as nothing). */
const DAYS: NumberRules = { label: 'Every how many days', whole: true, min: 1, max: CHORE_LIMITS.days, message: choreMessages.badDays };
const MONTH_DAY: NumberRules = { label: 'Day of the month', whole: true, min: 1, max: 31, message: choreMessages.badMonthDay };
const POINTS: NumberRules = { label: 'Points', whole: true, min: 1, max: CHORE_LIMITS.points, message: choreMessages.badPoints };

/** The form that adds a chore: name, how often, who, points. */
function NewChore({ members }: { members: string[] }) {
  const utils = trpc.useUtils();
  const [name, setName] = useState('');
  const [often, setOften] = useState<'days' | 'weekdays' | 'monthDay'>('weekdays');
  const [days, setDays] = useState('7');
  const [weekdays, setWeekdays] = useState<number[]>([]);
  const [monthDay, setMonthDay] = useState('1');
  const [whoKind, setWhoKind] = useState<'turns' | 'one' | 'anyone'>('turns');
  const [one, setOne] = useState('');
  const [turns, setTurns] = useState<string[]>([]);
  const [points, setPoints] = useState(String(CHORE_DEFAULT_POINTS));
  const [error, setError] = useState<string | null>(null);
  const create = trpc.chores.create.useMutation({
    onMutate: () => setError(null),
    onError: (e) => setError(e.message),
    onSuccess: () => {
      setName('');
      void utils.chores.invalidate();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const count = often === 'days' ? parseNumber(days, DAYS) : often === 'monthDay' ? parseNumber(monthDay, MONTH_DAY) : null;
    const score = parseNumber(points, POINTS);
    for (const parsed of [count, score]) if (parsed && !parsed.ok) return setError(parsed.message);
    // A blank count goes as 0, which the server refuses with the same words.
    const n = count?.ok ? (count.value ?? 0) : 0;
    const every: ChoreEvery = often === 'days' ? { days: n } : often === 'weekdays' ? { weekdays } : { monthDay: n };
    const who: ChoreWho = whoKind === 'anyone' ? { anyone: true } : whoKind === 'one' ? { one } : { turns };
    create.mutate({ name, every, who, ...(score.ok && score.value !== null ? { points: score.value } : {}) });
  };
  const toggle = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  return (
    <section className="card chores-section" aria-labelledby="chore-new-title">
      <h2 id="chore-new-title">New chore</h2>
      <form onSubmit={submit} aria-label="New chore">
        <TextInput label="Chore" value={name} onValueChange={setName} maxLength={CHORE_LIMITS.name} required />
        <div className="plan-inline">
          <SelectField label="How often" value={often} onValueChange={(v) => setOften(v as typeof often)}>
            <option value="days">Every N days</option>
            <option value="weekdays">Weekly, on chosen days</option>
            <option value="monthDay">Monthly, on a day</option>
          </SelectField>
          {often === 'days' && <NumberInput rules={DAYS} value={days} onValueChange={setDays} />}
          {often === 'monthDay' && <NumberInput rules={MONTH_DAY} value={monthDay} onValueChange={setMonthDay} />}
          <NumberInput rules={POINTS} value={points} onValueChange={setPoints} />
        </div>
        {often === 'weekdays' && (
          <fieldset className="plan-inline">
            <legend>On</legend>
            {WEEKDAY_NAMES.map((day, i) => (
              <label key={day} className="checkbox">
                <input type="checkbox" checked={weekdays.includes(i + 1)} onChange={() => setWeekdays(toggle(weekdays, i + 1).sort())} />
                {day.slice(0, 3)}
              </label>
            ))}
          </fieldset>
        )}
        <div className="plan-inline">
          <SelectField label="Who does it" value={whoKind} onValueChange={(v) => setWhoKind(v as typeof whoKind)}>
            <option value="turns">Turns</option>
            <option value="one">One person</option>
            <option value="anyone">Anyone (whoever does it first)</option>
          </SelectField>
          {whoKind === 'one' && (
            <SelectField label="Person" value={one} onValueChange={setOne}>
              <option value="">Choose…</option>
              {members.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </SelectField>
          )}
        </div>
        {whoKind === 'turns' && (
          <fieldset className="plan-inline">
            <legend>Taking turns, in the order ticked{turns.length > 0 ? `: ${turns.join(' → ')}` : ''}</legend>
            {members.map((m) => (
              <label key={m} className="checkbox">
                <input type="checkbox" checked={turns.includes(m)} onChange={() => setTurns(toggle(turns, m))} />
                {m}
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" className="button primary" disabled={create.isPending}>
          Add chore
        </button>
      </form>
      <ErrorBubble message={error} />
    </section>
  );
}

/** A month's points per member, with the months before it. */
function PointsTable({ today }: { today: string }) {
  const [month, setMonth] = useState(today.slice(0, 7));
  const points = trpc.chores.points.useQuery({ month });
  const shift = (by: number) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    const d = new Date(Date.UTC(y, m - 1 + by, 1));
    setMonth(d.toISOString().slice(0, 7));
  };
  const title = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
  return (
    <section className="card chores-section" aria-labelledby="chore-points-title">
      <h2 id="chore-points-title">Points: {title}</h2>
      <div className="link-row">
        <button type="button" className="button" onClick={() => shift(-1)}>
          Previous month
        </button>
        <button type="button" className="button" onClick={() => shift(1)} disabled={month >= today.slice(0, 7)}>
          Next month
        </button>
      </div>
      <LoadedTable
        query={points}
        what="the points"
        loading="Loading points..."
        empty="No chores done this month yet."
        rowKey={(r) => r.name}
        columns={[
          { label: 'Member', cell: (r) => r.name },
          { label: 'Points', cell: (r) => r.points },
        ]}
      />
    </section>
  );
}

/**
 * Several queries as one for <Loaded>: there when all are (My week reads the chores and the meal plan's
 * weeks, and never says "Nothing for you" from a list that could not be loaded), else the first failure.
 */
function allOf(queries: LoadedQuery<unknown>[]): LoadedQuery<true> {
  const status = (s: string) => queries.some((q) => q.fetchStatus === s);
  return {
    data: queries.every((q) => q.data !== undefined) ? true : undefined,
    error: queries.find((q) => q.error)?.error ?? null,
    refetch: () => Promise.all(queries.map((q) => q.refetch())),
    fetchStatus: status('paused') ? 'paused' : status('fetching') ? 'fetching' : 'idle',
    dataUpdatedAt: Math.min(...queries.map((q) => q.dataUpdatedAt ?? 0)),
  };
}

/** /house/chores: chores that rotate, "My week", and the month's points. */
export default function ChoresPage() {
  const status = trpc.auth.status.useQuery();
  const me = status.data?.user ?? null;
  const chores = trpc.chores.list.useQuery();
  const members = trpc.plan.members.useQuery();
  const today = localToday();
  const weeks = trpc.useQueries((t) => myWeekStarts(today).map((start) => t.plan.week({ start })));
  useLive(['chores', 'plan']);
  const utils = trpc.useUtils();
  const queue = useOfflineQueue({ area: 'chores', describe: describeChoreOutcome });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Chores';
  }, []);
  const waiting = waitingChores(queue.waiting);
  const act = (procedure: 'chores.done' | 'chores.undo', chore: Chore) => {
    setBusy(true);
    queue
      .submit(procedure, procedure === 'chores.done' ? { id: chore.id, due: chore.next } : { id: chore.id }, chore.name)
      .catch((error: unknown) => {
        window.alert(errorMessage(error));
        void utils.chores.invalidate();
      })
      .finally(() => setBusy(false));
  };
  const remove = trpc.chores.delete.useMutation({ onSuccess: () => void utils.chores.invalidate(), onError: (e) => window.alert(e.message) });
  const { chores: mine, cooking } = myWeek(today, me, chores.data ?? [], weeks.flatMap((w) => w.data?.days ?? []));

  return (
    <main className="page chores-page">
      <header className="page-hero">
        <h1>Chores</h1>
        <p className="lead">Who does what, in turns.</p>
      </header>
      <nav className="link-row plan-house-links" aria-label="House">
        <Link className="button" to="/house/plan">Meal plan</Link>
        <Link className="button" to="/house">House TODO</Link>
      </nav>
      <SyncStatus waiting={queue.waiting.length} />
      <ChangeMessages messages={queue.messages} onDismiss={queue.dismiss} />
      <section className="card" aria-labelledby="my-week-title">
        <h2 id="my-week-title">My week</h2>
        <Loaded query={allOf([chores, ...weeks])} what="your week" loading="Loading your week...">
          {() =>
            mine.length === 0 && cooking.length === 0 ? (
              <p>Nothing for you this week.</p>
            ) : (
              <ul>
                {mine.map((c) => (
                  <li key={`c${c.id}`}>
                    {c.overdue ? `Overdue (${dayLabel(c.next)})` : c.next === today ? 'Today' : dayLabel(c.next)}: {c.name}
                    {c.assignee === null && ' (anyone)'}
                  </li>
                ))}
                {cooking.map((s) => (
                  <li key={`m${s.date}${s.meal}`}>
                    {dayLabel(s.date)}: cook {s.meal.toLocaleLowerCase()}, {s.title ?? s.text}
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
      <section className="card chores-section" aria-labelledby="chores-title">
        <h2 id="chores-title">All chores</h2>
        <LoadedTable
          query={chores}
          what="the chores"
          loading="Loading chores..."
          empty="No chores yet."
          className="chores-table"
          rowKey={(c) => c.id}
          rowClassName={(c) => (c.overdue ? 'chore-overdue' : undefined)}
          columns={[
            {
              label: 'Chore',
              className: 'chore-row-name',
              cell: (c) => (
                <>
                  {c.name} {c.overdue && <span className="chore-overdue-badge">Overdue</span>}
                  {waiting.has(c.id) && <span className="waiting-badge">Waiting</span>}
                  <span className="plan-who">
                    {scheduleText(c.every)} · {whoText(c)} · {c.points} point{c.points === 1 ? '' : 's'}
                    {c.last && ` · last done by ${c.last.by ?? 'a former member'}`}
                  </span>
                </>
              ),
            },
            { label: 'Next', cell: (c) => dayLabel(c.next) },
            { label: 'Whose turn', cell: (c) => c.assignee ?? 'Anyone' },
            {
              label: 'Actions',
              hideLabel: true,
              cell: (c) => (
                <div className="link-row">
                  <button type="button" className="button primary" disabled={busy || waiting.has(c.id)} aria-label={`Done: ${c.name}`} onClick={() => act('chores.done', c)}>
                    Done
                  </button>
                  <button type="button" className="button" disabled={busy || waiting.has(c.id) || c.last === null} aria-label={`Undo: ${c.name}`} onClick={() => act('chores.undo', c)}>
                    Undo
                  </button>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Delete: ${c.name}`}
                    onClick={() => {
                      if (window.confirm(`Delete the chore "${c.name}" and its history?`)) remove.mutate({ id: c.id });
                    }}
                  >
                    Delete
                  </button>
                </div>
              ),
            },
          ]}
        />
      </section>
      <NewChore members={members.data ?? []} />
      <PointsTable today={today} />
    </main>
  );
}
