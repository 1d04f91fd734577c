import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';

const count = (n: number) => n.toLocaleString('en');

/** The owner's view of people in the pictures: how far the indexing has come, and the site-wide switch. */
export function PeoplePanel() {
  const utils = trpc.useUtils();
  const settings = trpc.people.settings.useQuery(undefined, {
    refetchInterval: (q) => (q.state.data && q.state.data.enabled && q.state.data.indexed < q.state.data.total ? 5000 : false),
  });
  const toggle = trpc.people.setEnabled.useMutation({ onSuccess: () => utils.people.invalidate() });
  const data = settings.data;
  return (
    <section className="card" aria-labelledby="people-title">
      <h2 id="people-title">People in the pictures</h2>
      <ErrorBubble message={(settings.error ?? toggle.error)?.message ?? null} />
      {data ? (
        <>
          <p data-testid="people-indexed">
            {`Indexed ${count(data.indexed)} of ${count(data.total)}`}
            {data.failed > 0 ? ` (${count(data.failed)} could not be read)` : ''}
          </p>
          <label>
            <input type="checkbox" checked={data.enabled} disabled={toggle.isPending} onChange={(e) => toggle.mutate({ enabled: e.target.checked })} /> Find people in
            the pictures (faces grouped into people, for every member)
          </label>
        </>
      ) : (
        !settings.error && <p role="status">Loading...</p>
      )}
    </section>
  );
}
