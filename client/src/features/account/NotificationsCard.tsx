import { useEffect, useState } from 'react';
import type { Level } from '@site/contracts/levels';
import { NOTIFICATION_KINDS, receivableKinds, pushWords, type NotificationKind } from '@site/contracts/notifications';

import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { trpc } from '../../lib/trpc.ts';

/** timeZone: the member's own, null until their first save (which keeps this device's). */
type Settings = { muted: NotificationKind[]; quietFrom: string | null; quietTo: string | null; timeZone: string | null };

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The IANA zones this browser knows, with `also` (the member's and the device's) when it lists them not. */
function zoneChoices(...also: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, 'UTC', ...also])].sort((a, b) => a.localeCompare(b));
}
const pushSupported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
const isIos = () => typeof navigator !== 'undefined' && /iPhone|iPad|iPod/.test(navigator.userAgent);
const installed = () => typeof window !== 'undefined' && window.matchMedia?.('(display-mode: standalone)').matches;

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** "Notifications on this device": asks the browser, subscribes with the site's key, tells the server. */
function DeviceSwitch() {
  const utils = trpc.useUtils();
  const subscribe = trpc.push.subscribe.useMutation();
  const unsubscribe = trpc.push.unsubscribe.useMutation();
  const [on, setOn] = useState<boolean | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void currentSubscription().then((s) => setOn(s !== null));
  }, []);
  if (!pushSupported()) return <p data-testid="push-note">{isIos() && !installed() ? pushWords.iphone : pushWords.unsupported}</p>;
  const toggle = async (wanted: boolean) => {
    setError(null);
    setNote(null);
    try {
      if (wanted) {
        const permission = await Notification.requestPermission();
        if (permission !== 'granted') {
          setNote(pushWords.refused);
          setOn(false);
          return;
        }
        const { publicKey } = await utils.push.vapidKey.fetch();
        const registration = await navigator.serviceWorker.ready;
        const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
        const json = subscription.toJSON();
        await subscribe.mutateAsync({ endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } });
        setOn(true);
      } else {
        const subscription = await currentSubscription();
        if (subscription) {
          await unsubscribe.mutateAsync({ endpoint: subscription.endpoint });
          await subscription.unsubscribe();
        }
        setOn(false);
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <>
      <label>
        <input type="checkbox" checked={on ?? false} disabled={on === null} onChange={(e) => void toggle(e.target.checked)} data-testid="push-device" />{' '}
        {pushWords.deviceToggle}
      </label>
      {isIos() && <p className="small">{pushWords.iphone}</p>}
      {note && (
        <p role="status" data-testid="push-note">
          {note}
        </p>
      )}
      <ErrorBubble message={error} />
    </>
  );
}

/** The Account page's notification settings: this device, the kinds, quiet hours. */
export function NotificationsCard() {
  const settings = trpc.notifications.settings.useQuery();
  // Only the kinds this member's level can receive (the rule the server's recipients follow).
  const status = trpc.auth.status.useQuery().data;
  const viewer = status?.user ? { name: status.user, level: status.level as Level } : null;
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  // What the member just chose, shown at once until the server's answer replaces it (React state, so
  // a switch changes in the same event: the query cache tells its readers a tick later, and a
  // controlled checkbox would spring back meanwhile).
  const [chosen, setChosen] = useState<Settings | null>(null);
  const save = trpc.notifications.setSettings.useMutation({
    onMutate: () => setError(null),
    onSuccess: (saved) => utils.notifications.settings.setData(undefined, saved),
    onError: (e) => {
      setError(e.message);
      void utils.notifications.settings.invalidate();
    },
    // The last choice's answer ends the wait; an earlier one's leaves a later choice shown.
    onSettled: (_saved, _error, sent) => setChosen((c) => (c === sent ? null : c)),
  });
  return (
    <section className="card notification-settings" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <DeviceSwitch />
      <Loaded query={settings} what="your notification settings" loading="Loading notification settings...">
        {(loaded) => {
          const s = chosen ?? loaded;
          const device = browserTimeZone();
          // The zone is sent only when chosen in its select; any save brings this device's zone, which
          // the server keeps only for a member who has none yet.
          const change = (next: Partial<Settings>) => {
            const wanted = { muted: s.muted, quietFrom: s.quietFrom, quietTo: s.quietTo, timeZone: s.timeZone ?? device, ...next };
            setChosen(wanted);
            save.mutate({
              muted: wanted.muted,
              quietFrom: wanted.quietFrom,
              quietTo: wanted.quietTo,
              ...(next.timeZone ? { timeZone: next.timeZone } : {}),
              deviceTimeZone: device,
            });
          };
          const zone = s.timeZone ?? device;
          return (
            <>
              <fieldset>
                <legend>Tell me when</legend>
                {receivableKinds(viewer).map((kind) => (
                  <label key={kind}>
                    <input
                      type="checkbox"
                      checked={!s.muted.includes(kind)}
                      onChange={(e) => change({ muted: e.target.checked ? s.muted.filter((k) => k !== kind) : [...s.muted, kind] })}
                    />{' '}
                    {NOTIFICATION_KINDS[kind].label}
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend>{pushWords.quietHours}</legend>
                <p className="small">{pushWords.quietHoursHelp}</p>
                <label>
                  From <input type="time" value={s.quietFrom ?? ''} onChange={(e) => change({ quietFrom: e.target.value || null, quietTo: e.target.value ? (s.quietTo ?? '07:00') : null })} />
                </label>
                <label>
                  To <input type="time" value={s.quietTo ?? ''} onChange={(e) => change({ quietTo: e.target.value || null, quietFrom: e.target.value ? (s.quietFrom ?? '22:00') : null })} />
                </label>
                <p className="small">Times are in your time zone, {zone}.</p>
              </fieldset>
              <fieldset>
                <legend>Your time zone</legend>
                <label htmlFor="notification-time-zone">Time zone</label>
                <select id="notification-time-zone" value={zone} onChange={(e) => change({ timeZone: e.target.value })}>
                  {zoneChoices(zone, device).map((z) => (
                    <option key={z} value={z}>
                      {z.replace(/_/g, ' ')}
                    </option>
                  ))}
                </select>
                <p className="small" data-testid="notification-time-zone-note">
                  {s.timeZone === null
                    ? `Not saved yet: your first change here keeps this device's zone, ${device}.`
                    : `Quiet hours and the daily notifications (chores at 08:00, dinner at 15:00, On this day) follow it. It changes only here${device === zone ? '' : `, not with this device's zone (${device})`}.`}
                </p>
              </fieldset>
              <ErrorBubble message={error} />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
