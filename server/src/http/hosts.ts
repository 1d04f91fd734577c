import net from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const hostMessages = {
  missing: 'The request has no Host header',
  refused: (host: string) =>
    `This server does not answer to the name ${host}. If it is yours, add it to PUBLIC_HOSTS (see the README).`,
};

/** The name part of a Host header value: '[::1]:8080' -> '::1', 'Example.org:80' -> 'example.org'. */
export function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') === -1 ? undefined : value.indexOf(']'));
  const colon = value.indexOf(':');
  return (colon === -1 ? value : value.slice(0, colon)).replace(/\.$/, '');
}

/** Whether a name is one this server answers to: an IP literal, localhost, or a PUBLIC_HOSTS entry. */
export function hostAllowed(name: string, publicHosts: readonly string[]): boolean {
  if (name === '') return false;
  if (net.isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  for (const allowed of publicHosts) {
    if (allowed.startsWith('.') ? name === allowed.slice(1) || name.endsWith(allowed) : name === allowed) return true;
  }
  return false;
}

/**
 * Refuses requests for a name the site does not know (DNS rebinding: a page of attacker.example
 * whose name now points at this machine would otherwise be same-origin with it, and the same-site
 * guard compares Origin with Host). Allowed: IP literals, localhost, and PUBLIC_HOSTS. Behind a
 * trusted proxy the forwarded host is checked too. Answers 421 with a message saying what to set.
 */
export function hostGuard(publicHosts: readonly string[]) {
  // Nearly every request carries the same Host: the last allowed value answers without parsing.
  let lastAllowed: string | undefined;
  const refuse = (reply: FastifyReply, name: string) => {
    void reply.code(421).send({ message: hostMessages.refused(name.slice(0, 100)) });
    return false;
  };
  return (req: FastifyRequest, reply: FastifyReply): boolean => {
    const raw = req.headers.host;
    if (raw === undefined || raw === '') {
      void reply.code(400).send({ message: hostMessages.missing });
      return false;
    }
    if (raw !== lastAllowed) {
      const name = hostName(raw);
      if (!hostAllowed(name, publicHosts)) return refuse(reply, name);
      lastAllowed = raw;
    }
    // req.host is X-Forwarded-Host when the proxy is trusted, else the Host header.
    if (req.headers['x-forwarded-host'] !== undefined) {
      const forwarded = hostName(req.host);
      if (!hostAllowed(forwarded, publicHosts)) return refuse(reply, forwarded);
    }
    return true;
  };
}
