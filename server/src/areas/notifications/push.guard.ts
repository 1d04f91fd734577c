import { notificationMessages as m } from '@site/contracts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { addressGuard, type NetPolicy } from '../../net/address-guard.ts';

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

/** A PUSH_ALLOWED_HOSTS entry: `host`, `host:port`, `[v6]` or `[v6]:port` (a bare IPv6 address names the host only). */
export function parseAllowedHost(entry: string): { host: string; port: string | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1] as string, port: bracketed[2] ?? null };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { host: withPort[1] as string, port: withPort[2] as string };
  return { host: entry, port: null };
}

/** Whether PUSH_ALLOWED_HOSTS allows this URL's host and port on a private address. */
export function allowedPrivate(config: Config, url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return config.push.allowedHosts.some((entry) => {
    const allowed = parseAllowedHost(entry);
    return allowed.host === host && (allowed.port === null || allowed.port === port);
  });
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
