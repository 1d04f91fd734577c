/* global self, caches */
/* The service worker's share target (imported by the worker Workbox generates: vite.config.ts). The
   installed app's manifest names POST /share-target (multipart, the shared photos and videos under
   `files`) as its share_target: the files are kept in Cache Storage ('shared-files', each under its
   own URL with its name and modified time in headers) and the upload page opens with ?shared=1, where
   src/features/pictures/shared-files.ts takes them out, ready to send. Nothing reaches the server
   until the member presses Upload. */
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'POST' || url.origin !== self.location.origin || url.pathname !== '/share-target') return;
  event.respondWith(
    (async () => {
      try {
        const form = await event.request.formData();
        const files = form.getAll('files').filter((value) => typeof value !== 'string');
        const cache = await caches.open('shared-files');
        const stamp = String(Date.now()).padStart(15, '0');
        let n = 0;
        for (const file of files) {
          const key = `/share-target/file/${stamp}-${String(n++).padStart(4, '0')}`;
          await cache.put(
            new Request(key),
            new Response(file, {
              headers: {
                'content-type': file.type || 'application/octet-stream',
                'x-file-name': encodeURIComponent(file.name || 'shared'),
                'x-last-modified': String(file.lastModified || Date.now()),
              },
            }),
          );
        }
        return Response.redirect('/personal/upload-pictures?shared=1', 303);
      } catch {
        return Response.redirect('/personal/upload-pictures?shared=0', 303);
      }
    })(),
  );
});
