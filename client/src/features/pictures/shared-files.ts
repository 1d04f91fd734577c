/**
 * Files the phone's share sheet sent to the installed app (the manifest's share_target): the service
 * worker (public/share-target-sw.js) keeps each in Cache Storage under SHARED_FILES_CACHE, with its
 * name and modified time in headers, and opens the upload page with `?shared=1`; the page takes them
 * out here (and they are gone from the cache), ready to send.
 */
export const SHARED_FILES_CACHE = 'shared-files';
export const SHARED_QUERY = 'shared';

/** The files waiting from the share sheet, oldest first; the cache is emptied. None without Cache Storage. */
export async function takeSharedFiles(): Promise<File[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(SHARED_FILES_CACHE);
  const files: File[] = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    if (response) {
      const name = decodeURIComponent(response.headers.get('x-file-name') ?? 'shared');
      const lastModified = Number(response.headers.get('x-last-modified')) || Date.now();
      const blob = await response.blob();
      files.push(new File([blob], name, { type: response.headers.get('content-type') ?? blob.type, lastModified }));
    }
    await cache.delete(request);
  }
  return files;
}
