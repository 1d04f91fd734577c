import { useState, type FormEvent } from 'react';
import { allows, procedures } from '@site/contracts/permissions';
import { NOTIFICATION_KINDS, receivableKinds, type NotificationKind } from '@site/contracts/notifications';
import { WEBHOOK_EVENT_KINDS, type WebhookRow } from '@site/contracts/webhooks';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadedTable } from '../../components/LoadedTable.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { currentPort, viewerOf } from '../../lib/access.ts';
import { trpc } from '../../lib/trpc.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const statusWords = { active: 'Active', failing: 'Failing (still tried)', paused: 'Paused' } as const;
const answerOf = (status: number, problem: string | null) => (status === 0 ? (problem ?? 'No answer') : String(status));

/** The last attempts of one webhook (newest first): the message, its try, the answer and the time. */
function Deliveries({ hook }: { hook: WebhookRow }) {
  const attempts = trpc.webhooks.deliveries.useQuery({ id: hook.id });
  return (
    <section aria-label={`Deliveries to ${hook.url}`}>
      <h3>Deliveries to {hook.url}</h3>
      <LoadedTable
        query={attempts}
        what="the deliveries"
        loading="Loading deliveries..."
        empty={<>Nothing sent yet.</>}
        rowKey={(a) => a.id}
        columns={[
          { label: 'When', cell: (a) => when(a.at) },
          { label: 'Event', cell: (a) => a.type },
          { label: 'Try', cell: (a) => a.attempt },
          { label: 'Answer', cell: (a) => <span className={a.ok ? undefined : 'error-text'}>{answerOf(a.status, a.problem)}</span> },
          { label: 'Time taken', cell: (a) => `${a.durationMs} ms` },
        ]}
      />
    </section>
  );
}

/**
 * Webhooks for home automation (Family and up): an address on a host the owner allows and the kinds
 * of event it carries; the signing secret shown once; each one's status, its deliveries, a test, delete.
 */
export function WebhooksCard() {
  const status = trpc.auth.status.useQuery();
  const viewer = viewerOf(status.data);
  if (!allows(procedures['webhooks.list'], viewer, currentPort())) return null;
  return <Webhooks kinds={receivableKinds(viewer).filter((kind) => WEBHOOK_EVENT_KINDS.includes(kind))} />;
}

function Webhooks({ kinds }: { kinds: NotificationKind[] }) {
  const hooks = trpc.webhooks.list.useQuery();
  const utils = trpc.useUtils();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<NotificationKind[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const refresh = () => void utils.webhooks.invalidate();
  const create = trpc.webhooks.create.useMutation({
    onMutate: () => setError(null),
    onSuccess: () => {
      setUrl('');
      setEvents([]);
      refresh();
    },
    onError: (e) => setError(e.message),
  });
  const test = trpc.webhooks.test.useMutation({ onMutate: () => setError(null), onSettled: refresh, onError: (e) => setError(e.message) });
  const update = trpc.webhooks.update.useMutation({ onMutate: () => setError(null), onSuccess: refresh, onError: (e) => setError(e.message) });
  const remove = trpc.webhooks.delete.useMutation({
    onMutate: () => setError(null),
    onSuccess: () => {
      setShown(null);
      refresh();
    },
    onError: (e) => setError(e.message),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ url, events });
  };
  const shownHook = hooks.data?.find((h) => h.id === shown);
  return (
    <section className="card webhooks-card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p>
        The site POSTs each event you choose to your address (Home Assistant, say), signed as{' '}
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: check the <code>webhook-signature</code> header with the secret.
        Only hosts the site&rsquo;s owner allows can be used.
      </p>
      <form onSubmit={onSubmit} aria-label="New webhook" noValidate>
        <TextInput label="Address" name="webhookUrl" type="url" autoComplete="off" value={url} onValueChange={setUrl} />
        <fieldset>
          <legend>Send these events</legend>
          {kinds.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                checked={events.includes(kind)}
                onChange={(e) => setEvents(e.target.checked ? [...events, kind] : events.filter((k) => k !== kind))}
              />{' '}
              {NOTIFICATION_KINDS[kind].label}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button" disabled={create.isPending}>
          Add webhook
        </button>
      </form>
      <ErrorBubble message={error} testId="webhooks-error" />
      {create.data && (
        <div className="confirm-box done-box" role="status" aria-label="New webhook">
          <p>
            The signing secret for <strong>{create.data.url}</strong>. Copy it now: it is shown only this once.
          </p>
          <CopyButton label="Secret" text={create.data.secret} alert="Secret copied" />
        </div>
      )}
      {test.data && (
        <p role="status" aria-label="Test result">
          Test sent: {test.data.ok ? `answered ${test.data.status}` : `failed (${answerOf(test.data.status, test.data.problem)})`} in {test.data.durationMs} ms.
        </p>
      )}
      <LoadedTable
        query={hooks}
        what="your webhooks"
        loading="Loading webhooks..."
        empty={<>No webhooks yet.</>}
        rowKey={(h) => h.id}
        columns={[
          { label: 'Address', cell: (h) => h.url },
          { label: 'Events', cell: (h) => h.events.map((k) => NOTIFICATION_KINDS[k].label).join('; ') },
          { label: 'Status', cell: (h) => statusWords[h.status] },
          {
            label: 'Last delivery',
            cell: (h) => (h.lastAttempt ? `${when(h.lastAttempt.at)}: ${h.lastAttempt.status === 0 ? 'no answer' : h.lastAttempt.status}` : 'Never'),
          },
          {
            label: 'Actions',
            hideLabel: true,
            cell: (h) => (
              <span className="button-row">
                <button type="button" className="button" aria-label={`Deliveries to ${h.url}`} aria-pressed={shown === h.id} onClick={() => setShown(shown === h.id ? null : h.id)}>
                  Deliveries
                </button>
                <button type="button" className="button" aria-label={`Send test to ${h.url}`} disabled={test.isPending} onClick={() => test.mutate({ id: h.id })}>
                  Send test
                </button>
                {h.status === 'paused' && (
                  <button type="button" className="button" aria-label={`Resume ${h.url}`} onClick={() => update.mutate({ id: h.id, active: true })}>
                    Resume
                  </button>
                )}
                <button type="button" className="button" aria-label={`Delete ${h.url}`} onClick={() => remove.mutate({ id: h.id })}>
                  Delete
                </button>
              </span>
            ),
          },
        ]}
      />
      {shownHook && <Deliveries hook={shownHook} />}
    </section>
  );
}
