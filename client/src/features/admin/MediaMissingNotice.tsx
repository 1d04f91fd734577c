import { trpc } from '../../lib/trpc.ts';

/**
 * The Admin page's notice when this instance's MEDIA_DIR lacks originals the database names (the
 * server checks at start): every instance needs the same MEDIA_DIR, or they 404 each other's pictures.
 */
export function MediaMissingNotice() {
  const check = trpc.pictures.mediaCheck.useQuery();
  const result = check.data;
  if (!result || result.missing === 0) return null;
  return (
    <section className="card error-bubble" role="alert" aria-labelledby="media-missing-title" data-testid="media-missing">
      <h2 id="media-missing-title">Media missing</h2>
      <p>
        {result.missing} of {result.checked} pictures named in the database are missing from this server&apos;s media folder (
        <code>{result.mediaDir}</code>), for example {result.examples.join(', ')}. Every instance needs the same MEDIA_DIR (shared
        storage); point this one at the folder that holds them.
      </p>
    </section>
  );
}
