/**
 * A list of hosts the owner names in the environment (PUSH_ALLOWED_HOSTS, WEBHOOK_ALLOWED_HOSTS), one
 * entry each: `host`, `host:port`, `[v6]` or `[v6]:port` (a bare IPv6 address names the host only).
 * `host` allows every port of it, `host:port` that port only.
 */
export function parseAllowedHost(entry: string): { host: string; port: string | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1] as string, port: bracketed[2] ?? null };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { host: withPort[1] as string, port: withPort[2] as string };
  return { host: entry, port: null };
}

/** Whether a URL's host and port (the scheme's default when it names none) is in the list (lower case entries). */
export function hostListed(entries: readonly string[], url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return entries.some((entry) => {
    const allowed = parseAllowedHost(entry);
    return allowed.host === host && (allowed.port === null || allowed.port === port);
  });
}
