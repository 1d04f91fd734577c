import { notificationMessages as m } from '@site/contracts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { addressGuard, type NetPolicy } from '../../net/address-guard.ts';

/**
 * A push endpoint is a URL a browser hands us, and the server will POST to it: it is checked like a
 * recipe link (no loopback, private or link-local address), and must be https. Hosts the owner
 * names in PUSH_ALLOWED_HOSTS (a self-hosted push service, tests) may be on a private address.
 */
export const pushGuard = addressGuard({
  notUrl: m.badEndpoint,
  notHttp: m.notHttps,
  unknownHost: m.unknownPushHost,
  privateHost: m.privatePushHost,
});

export function pushPolicy(config: Config, host: string, lookup?: NetPolicy['lookup']): NetPolicy {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return { allowPrivate: config.push.allowedHosts.includes(bare), ...(lookup ? { lookup } : {}) };
}

/** The endpoint parsed and its host resolved and allowed; refuses anything but https. */
export async function checkEndpoint(config: Config, raw: string): Promise<URL> {
  const url = pushGuard.parseUrl(raw);
  if (url.protocol !== 'https:') throw new AppError('BAD_REQUEST', m.notHttps);
  if (url.username !== '' || url.password !== '') throw new AppError('BAD_REQUEST', m.badEndpoint);
  await pushGuard.resolveAllowed(url.hostname, pushPolicy(config, url.hostname));
  return url;
}
