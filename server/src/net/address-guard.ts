import { promises as dns } from 'node:dns';
import net from 'node:net';
import { AppError } from '../errors.ts';

/**
 * Where the server may fetch from for a member (YT-DL's downloads, recipe pages). Loopback, private, link-local (cloud metadata lives at 169.254.169.254
 * and fd00:ec2::254), carrier-grade NAT, multicast and reserved ranges are refused unless the owner
 * allows private hosts. IPv6 forms that carry an IPv4 address (mapped, compatible, SIIT, NAT64,
 * 6to4) are judged by the IPv4 address inside (embeddedIpv4).
 */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address carries, if any, in every form: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks), SIIT's IPv4-translated
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) and 6to4 (2002::/16);
 * written with a dotted tail or in hex groups alike.
 */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address.toLowerCase());
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const [g0, g1, g2, , g4, g5, g6 = 0, g7 = 0] = groups;
  // ::, ::1 are IPv6's own (unspecified, loopback), blocked as such.
  const isCompatible = zero(0, 6) && (g6 !== 0 || g7 > 1);
  const isMapped = zero(0, 5) && g5 === 0xffff;
  const isTranslated = zero(0, 4) && g4 === 0xffff && g5 === 0;
  const isNat64 = g0 === 0x64 && g1 === 0xff9b && (zero(2, 6) || g2 === 1);
  if (isCompatible || isMapped || isTranslated || isNat64) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1 ?? 0, g2 ?? 0);
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail taken as the last two), or null. */
function expandIpv6(address: string): number[] | null {
  if (!net.isIPv6(address)) return null;
  let text = address;
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const all = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return all.length === 8 ? all.map((g) => parseInt(g, 16)) : null;
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner !== null) return blocked.check(inner, 'ipv4');
  return blocked.check(address, 'ipv6');
}

export type Lookup = (host: string) => Promise<string[]>;

/** Where fetches may connect: the owner's setting (DOWNLOAD_ALLOW_PRIVATE_HOSTS), and (for tests) the resolver and address rule. */
export type NetPolicy = { allowPrivate: boolean; lookup?: Lookup; isBlocked?: (address: string) => boolean };

const systemLookup: Lookup = async (host) => {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

/** A host as DNS and net want it: IPv6 literals without their brackets. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What a refusal says, in the words of the page that asked (a video link, a recipe link).
 * `noInternet`, when given, replaces `unknownHost` when the server itself cannot resolve any name:
 * 'check the link' would send the member after a link that is fine.
 */
export type GuardMessages = { notUrl: string; notHttp: string; unknownHost: string; privateHost: string; noInternet?: string };

/** A name that always exists in public DNS (RFC 2606): when it does not resolve either, the server is offline. */
export const REFERENCE_HOST = 'example.com';

/** Whether a failed lookup says the server has no working DNS (no network), rather than that the host does not exist. */
async function cannotResolveAnything(error: unknown, lookup: Lookup): Promise<boolean> {
  const code = (error as { code?: unknown } | null)?.code;
  // EAI_AGAIN: no DNS server answered. ENOTFOUND is also what a resolver with no network says here, so ask for a name that exists.
  if (code === 'EAI_AGAIN' || code === 'ECONNREFUSED' || code === 'ENETUNREACH') return true;
  try {
    return (await lookup(REFERENCE_HOST)).length === 0;
  } catch {
    return true;
  }
}

export type AddressGuard = {
  /**
   * Resolves a host and refuses it (AppError) when it is unknown or when ANY of its addresses is
   * private (a name with one public and one private address could be steered to the private one).
   * Returns the addresses, to connect to exactly what was checked.
   */
  resolveAllowed(host: string, policy: NetPolicy): Promise<string[]>;
  /** Parses a member's link: only http(s), with a host. */
  parseUrl(raw: string): URL;
  /** The check before anything connects: a readable answer at once for the common refusals. */
  checkUrl(raw: string, policy: NetPolicy): Promise<URL>;
};

export function addressGuard(messages: GuardMessages): AddressGuard {
  async function resolveAllowed(host: string, policy: NetPolicy): Promise<string[]> {
    const bare = bareHost(host);
    const lookup = policy.lookup ?? systemLookup;
    const isBlocked = policy.isBlocked ?? isPrivateAddress;
    let addresses: string[];
    try {
      addresses = net.isIP(bare) ? [bare] : await lookup(bare);
    } catch (error) {
      const offline = messages.noInternet !== undefined && (await cannotResolveAnything(error, lookup));
      throw new AppError(offline ? 'SERVICE_UNAVAILABLE' : 'BAD_REQUEST', offline ? (messages.noInternet ?? messages.unknownHost) : messages.unknownHost);
    }
    if (addresses.length === 0) throw new AppError('BAD_REQUEST', messages.unknownHost);
    if (!policy.allowPrivate && addresses.some(isBlocked)) throw new AppError('BAD_REQUEST', messages.privateHost);
    return addresses;
  }

  function parseUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new AppError('BAD_REQUEST', messages.notUrl);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('BAD_REQUEST', messages.notHttp);
    if (url.hostname === '') throw new AppError('BAD_REQUEST', messages.notUrl);
    return url;
  }

  async function checkUrl(raw: string, policy: NetPolicy): Promise<URL> {
    const url = parseUrl(raw);
    await resolveAllowed(url.hostname, policy);
    return url;
  }

  return { resolveAllowed, parseUrl, checkUrl };
}
