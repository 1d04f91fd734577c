/* global self */
/* The service worker's Web Push part (imported by the worker Workbox generates: vite.config.ts).
   A push carries { id, kind, title, body, url } (server: areas/notifications/notifications.worker.ts);
   a click opens its page, in a window of the site already open when there is one (a window this
   worker controls: only those can be navigated). */
self.addEventListener('push', (event) => {
  let message = { title: 'Notification', body: '', url: '/personal/notifications', id: 0 };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // not JSON: the defaults
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: `event${message.id}`,
      icon: '/icons/icon-192.png',
      data: { url: message.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/personal/notifications', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((windows) => {
      // A window of the site already open (one already on that page first) is brought forward and
      // taken there; focus and navigate start together, while the click still allows window changes.
      const open = windows.find((w) => w.url === target) || windows[0];
      if (!open) return self.clients.openWindow(target);
      return Promise.allSettled([open.focus(), open.url === target ? null : open.navigate(target)]);
    }),
  );
});
