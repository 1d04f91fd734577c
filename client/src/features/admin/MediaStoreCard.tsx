import { trpc } from '../../lib/trpc.ts';

/** How often the Admin page asks the store again while it is open. */
const RECHECK_MS = 30_000;

/**
 * The Admin page's line on the media store: where pictures and files are kept (this server's folder
 * or a bucket) and whether it answers now. While it does not, uploads are refused and files cannot be
 * loaded; it comes back by itself once the store answers (no restart).
 */
export function MediaStoreCard() {
  const state = trpc.pictures.mediaStore.useQuery(undefined, { refetchInterval: RECHECK_MS });
  const store = state.data;
  if (!store) return null;
  if (store.ok) {
    return (
      <p className="small" data-testid="media-store">
        Media are kept in {store.description}: answering.
      </p>
    );
  }
  return (
    <section className="card error-bubble" role="alert" aria-labelledby="media-store-title" data-testid="media-store">
      <h2 id="media-store-title">Media store not answering</h2>
      <p>
        Media are kept in {store.description}, which does not answer ({store.reason}). Uploads are refused and pictures cannot be loaded
        until it answers again; nothing needs restarting.
      </p>
    </section>
  );
}
