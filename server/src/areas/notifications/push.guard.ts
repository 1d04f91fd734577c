import { notificationMessages as m } from '@site/contracts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { addressGuard, type NetPolicy } from '../../net/address-guard.ts';
import { hostListed } from '../../net/allowed-hosts.ts';

/**
 * A push endpoint is a URL a browser hands us, and the server will POST to it: it is checked like a
 * recipe link (no loopback, private or link-local address), and must be https. Hosts the owner
 * names in PUSH_ALLOWED_HOSTS (a self-hosted push service, tests) may be on a private address:
 * `host` allows any port of it, `host:port` that port only.
 */
export const pushGuard = addressGuard({
  notUrl: m.badEndpoint,
  notHttp: m.notHttps,
  unknownHost: m.unknownPushHost,
  privateHost: m.privatePushHost,
});

/** Whether PUSH_ALLOWED_HOSTS allows this URL's host and port on a private address. */
export function allowedPrivate(config: Config, url: URL): boolean {
  return hostListed(config.push.allowedHosts, url);
}

export function pushPolicy(config: Config, url: URL, lookup?: NetPolicy['lookup']): NetPolicy {
  return { allowPrivate: allowedPrivate(config, url), ...(lookup ? { lookup } : {}) };
}

/** The endpoint parsed and its host resolved and allowed; refuses anything but https. */
export async function checkEndpoint(config: Config, raw: string): Promise<URL> {
  const url = pushGuard.parseUrl(raw);
  if (url.protocol !== 'https:') throw new AppError('BAD_REQUEST', m.notHttps);
  if (url.username !== '' || url.password !== '') throw new AppError('BAD_REQUEST', m.badEndpoint);
  await pushGuard.resolveAllowed(url.hostname, pushPolicy(config, url));
  return url;
}
