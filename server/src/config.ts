import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isTimeZone } from '@site/contracts/time-zone';

/**
 * The repository root: the nearest folder above `start` that holds a package.json with "workspaces".
 * By default the search starts where this code lives (server/src or server/dist), so `npm start`,
 * `npm run migrate`, the scripts and a plain `node /path/to/server/dist/index.js` run from any folder
 * all resolve DATA_DIR and CLIENT_DIST the same way; the working directory is the fallback.
 */
export function findRepoRoot(start?: string): string {
  if (start !== undefined) return searchUp(start) ?? path.resolve(start);
  const here = path.dirname(fileURLToPath(import.meta.url));
  return searchUp(here) ?? searchUp(process.cwd()) ?? process.cwd();
}

function searchUp(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { workspaces?: unknown };
        if (json.workspaces) return dir;
      } catch {
        // an unreadable package.json is not the root; keep looking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Every environment variable the server reads, with its default and meaning (the README table). */
export const environment = [
  { name: 'PORT', default: '8080', meaning: 'TCP port the server listens on' },
  {
    name: 'EXTRA_PORT',
    default: '(unset)',
    meaning:
      'A second port the server also listens on (8443): it counts as port 8443 whatever its number, so pages and calls whose rule opens them on 8443 open there, told from the port the connection arrived on, never from the Host header',
  },
  {
    name: 'HOST',
    default: '0.0.0.0',
    meaning: 'Address to listen on; 0.0.0.0 serves the LAN, 127.0.0.1 only this machine',
  },
  {
    name: 'PUBLIC_URL',
    default: '(unset)',
    meaning:
      "The address members open the site at (`https://home.example.org`, no path): reset links printed by `npm run user -- reset-link` start with it; unset, the Admin page uses the address in the browser and `npm run user` this machine's LAN address and `PORT`",
  },
  {
    name: 'SITE_TIME_ZONE',
    default: "(the server's own)",
    meaning:
      "The IANA time zone the family lives in (`Europe/Oslo`): what day it is for chores and the meal plan, and when a planned meal is eaten in the calendar feed (sent in UTC)",
  },
  {
    name: 'DATA_DIR',
    default: './data',
    meaning: 'Where the embedded PGlite database (and later uploaded media) live; relative to the repository root',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset)',
    meaning: 'postgres://... to use a real PostgreSQL instead of the embedded PGlite database',
  },
  {
    name: 'CLIENT_DIST',
    default: './client/dist',
    meaning: 'The built client served at /; relative to the repository root',
  },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent' },
  {
    name: 'TRUST_PROXY',
    default: 'false',
    meaning:
      'Behind a reverse proxy: the proxy addresses or CIDRs (127.0.0.1,10.0.0.0/8) whose X-Forwarded-* headers give the client address, https and the port; a hop count (1) or true believes any sender, so the server refuses to start with one when HOST is not a loopback address (see TRUST_PROXY_ONLY_PROXY_CONNECTS)',
  },
  {
    name: 'TRUST_PROXY_ONLY_PROXY_CONNECTS',
    default: 'false',
    meaning:
      'true: the owner vouches that nothing but the proxy can connect to the port (a firewall), so TRUST_PROXY may be a hop count or true while HOST is not loopback',
  },
  {
    name: 'PUBLIC_HOSTS',
    default: '(unset)',
    meaning:
      'Host names the site answers to besides IP addresses and localhost, comma-separated (example.org,www.example.org; .example.org takes every subdomain); any other Host header is refused',
  },
  { name: 'SESSION_DAYS', default: '30', meaning: 'Sliding session lifetime in days (renewed at most hourly)' },
  {
    name: 'LIVE_STREAM_SECONDS',
    default: '900',
    meaning: 'How long one live-feed stream (GET /events) lasts before the page is asked to reconnect (it catches up at once)',
  },
  {
    name: 'ARGON2_MEMORY_KIB',
    default: '19456',
    meaning: 'argon2id memory cost in KiB (OWASP: 19 MiB); tests lower it',
  },
  { name: 'ARGON2_TIME_COST', default: '2', meaning: 'argon2id iterations' },
  { name: 'ARGON2_PARALLELISM', default: '1', meaning: 'argon2id lanes' },
  { name: 'BODY_LIMIT_BYTES', default: '1048576', meaning: 'Largest accepted request body (upload routes may set their own)' },
  {
    name: 'LOGIN_MAX_FAILURES',
    default: '10',
    meaning:
      'Login attempts per account or address (attempts in progress count) before 429; a browser that signed in to the account before has its own allowance',
  },
  { name: 'LOGIN_WINDOW_MINUTES', default: '15', meaning: 'Window in which failed logins are counted' },
  { name: 'SIGNUP_MAX_PER_ADDRESS', default: '20', meaning: 'Sign-up attempts per client address in the sign-up window before 429' },
  { name: 'SIGNUP_WINDOW_MINUTES', default: '60', meaning: 'Window in which sign-up attempts are counted' },
  {
    name: 'REQUEST_TIMEOUT_SECONDS',
    default: '120',
    meaning: 'Time a client has to send a whole request, headers and body (raise it for big uploads over slow links)',
  },
  {
    name: 'IDLE_TIMEOUT_SECONDS',
    default: '30',
    meaning: 'A connection that sends or receives nothing for this long is closed (headers must arrive within it too)',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_SECONDS',
    default: '10',
    meaning: 'On SIGTERM or SIGINT, how long requests in progress may take to finish before their connections are closed',
  },
  {
    name: 'MEDIA_DIR',
    default: '$DATA_DIR/media',
    meaning: 'Where uploaded files and their thumbnails live (outside any static root); relative to the repository root',
  },
  { name: 'MEDIA_MAX_BYTES', default: '2147483648', meaning: 'Largest uploaded media file in bytes (2 GiB)' },
  {
    name: 'MEDIA_STORE',
    default: 'local',
    meaning:
      '`local` keeps media under MEDIA_DIR; `s3` keeps them in an S3-compatible bucket (the S3_* settings; see docs/storage.md), with only temporary files under MEDIA_DIR. The store of a new site: once `npm run media -- move` has switched a site, the database records where its media are and that wins',
  },
  { name: 'S3_ENDPOINT', default: '(unset)', meaning: "The object store's address (`http://127.0.0.1:9000` for MinIO); unset means AWS S3 itself" },
  { name: 'S3_REGION', default: 'us-east-1', meaning: "The bucket's region (MinIO and most others accept `us-east-1`; Garage: its `s3_region`, often `garage`)" },
  { name: 'S3_BUCKET', default: '(unset)', meaning: 'The bucket media go into; required with MEDIA_STORE=s3 and for `npm run media -- move`; keep it private' },
  { name: 'S3_PREFIX', default: '(empty)', meaning: 'A folder inside the bucket for this site (`family/`), so one bucket can hold other things too' },
  { name: 'S3_ACCESS_KEY_ID', default: '(unset)', meaning: "The access key's id; unset means the SDK's usual sources (AWS_* variables, profile, instance role)" },
  { name: 'S3_SECRET_ACCESS_KEY', default: '(unset)', meaning: "The access key's secret (with S3_ACCESS_KEY_ID)" },
  {
    name: 'S3_FORCE_PATH_STYLE',
    default: 'false',
    meaning: '`true` asks for `endpoint/bucket/key` addresses instead of `bucket.endpoint/key`: needed by MinIO, Garage and most stores on a LAN',
  },
  {
    name: 'FIVETOOLS_DIR',
    default: '(DATA_DIR/5etools)',
    meaning: 'The 5eTools mirror served to members at /api/5etools/; `npm run 5etools -- install PATH` fills it',
  },
  {
    name: 'FINANCE_DOCUMENT_MAX_BYTES',
    default: '10485760',
    meaning: 'Largest charity documentation file (PDF, JPEG, PNG or WebP) the Finance page accepts',
  },
  {
    name: 'DEV_COMMANDS_FILE',
    default: '(unset)',
    meaning: 'JSON file of the Dev Dash commands (see docs/dev-dashboard.md); relative to the repository root; checked at start',
  },
  {
    name: 'GAME_HOST',
    default: 'localhost',
    meaning: 'Host players connect to for the game servers: copied with the port on the Game Servers page, and probed for their status',
  },
  {
    name: 'CLIMBING_PASSES_PER_MONTH',
    default: '(unset)',
    meaning: 'Climbing guest passes allowed per calendar month; unset means no limit (the page still counts them)',
  },
  {
    name: 'YTDLP_PATH',
    default: 'yt-dlp',
    meaning: 'The yt-dlp program YT-DL runs (found on PATH by default); point it at a current yt-dlp when the packaged one is too old',
  },
  {
    name: 'DOWNLOAD_ALLOW_PRIVATE_HOSTS',
    default: 'false',
    meaning: 'true lets YT-DL download, and recipe links import, from loopback, private and link-local addresses (a home network, tests)',
  },
  { name: 'DOWNLOAD_CONCURRENCY', default: '2', meaning: 'YT-DL downloads running at once on the server (one per member); more answer 429' },
  { name: 'DOWNLOAD_TIMEOUT_MINUTES', default: '30', meaning: 'A YT-DL download running longer than this is stopped' },
  { name: 'DOWNLOAD_MAX_MB', default: '4096', meaning: 'Largest YT-DL download in MB (bytes fetched and file kept); larger ones are stopped' },
  {
    name: 'BACKUP_DIR',
    default: '(unset)',
    meaning: 'Folder the server writes its own daily backups to (see docs/backups.md); unset means no scheduled backups; relative to the repository root',
  },
  { name: 'BACKUP_AT', default: '03:00', meaning: 'Time of day (HH:MM, local time) of the scheduled backup' },
  {
    name: 'BACKUP_KEEP',
    default: '7d,4w,6m',
    meaning: 'Scheduled backups kept: the newest of each of the last N days (d), weeks (w) and months (m); older ones in BACKUP_DIR are removed',
  },
  {
    name: 'BACKUP_MEDIA',
    default: 'include',
    meaning:
      '`include` puts every stored file (MEDIA_DIR or the bucket) into each backup; `skip` leaves them out and says so in the manifest, for a bucket kept by its own versioning (docs/storage.md)',
  },
  {
    name: 'BACKUP_KEY_FILE',
    default: 'DATA_DIR/backup.key',
    meaning:
      'The key backups are signed with (HMAC-SHA256), made by the first backup; never in an archive, so keep a copy apart from them: a restore checks the signature with it (docs/backups.md); relative to the repository root',
  },
  {
    name: 'VAPID_SUBJECT',
    default: '(PUBLIC_URL when https, else mailto:webpush@localhost)',
    meaning:
      'Who push services may contact about this site\'s notifications (mailto:you@example.org or https://...): sent in every Web Push request (docs/notifications.md)',
  },
  {
    name: 'PUSH_ALLOWED_HOSTS',
    default: '(unset)',
    meaning:
      'Push service hosts allowed although they resolve to loopback, private or link-local addresses (a self-hosted push service), comma-separated: `host` allows every port of it, `host:port` (`[::1]:8443`) that port only; push addresses must be https either way',
  },
  {
    name: 'WEBHOOK_ALLOWED_HOSTS',
    default: '(unset)',
    meaning:
      'The only hosts webhooks may be sent to (Home Assistant\'s LAN address, say), comma-separated as PUSH_ALLOWED_HOSTS: `host` allows every port of it, `host:port` (`192.168.1.20:8123`) that port only, on a private address too; unset means members cannot add webhooks (docs/api.md)',
  },
] as const;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  PORT: int(0, 65535).default(8080),
  EXTRA_PORT: int(1, 65535).optional(),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  CLIENT_DIST: z.string().min(1).default('./client/dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.string().default('false').transform((value, ctx) => {
    const parsed = parseTrustProxy(value);
    if (parsed === null) {
      ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY must be true, false, a hop count or addresses/CIDRs separated by commas' });
      return z.NEVER;
    }
    return parsed;
  }),
  TRUST_PROXY_ONLY_PROXY_CONNECTS: bool.default(false),
  PUBLIC_HOSTS: z.string().default(''),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, 'PUBLIC_URL must be http:// or https:// and a host (and port), without a path: https://home.example.org')
    .transform((v) => v.replace(/\/$/, ''))
    .optional(),
  SITE_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'SITE_TIME_ZONE must be an IANA time zone such as Europe/Oslo')
    .optional(),
  SESSION_DAYS: int(1, 3650).default(30),
  LIVE_STREAM_SECONDS: int(1, 24 * 3600).default(900),
  ARGON2_MEMORY_KIB: int(1024, 4 * 1024 * 1024).default(19456),
  ARGON2_TIME_COST: int(1, 100).default(2),
  ARGON2_PARALLELISM: int(1, 16).default(1),
  BODY_LIMIT_BYTES: int(1024, 1024 * 1024 * 1024).default(1024 * 1024),
  LOGIN_MAX_FAILURES: int(1, 10000).default(10),
  LOGIN_WINDOW_MINUTES: int(1, 24 * 60).default(15),
  SIGNUP_MAX_PER_ADDRESS: int(1, 100000).default(20),
  SIGNUP_WINDOW_MINUTES: int(1, 24 * 60).default(60),
  REQUEST_TIMEOUT_SECONDS: int(1, 24 * 3600).default(120),
  IDLE_TIMEOUT_SECONDS: int(1, 3600).default(30),
  SHUTDOWN_TIMEOUT_SECONDS: int(0, 3600).default(10),
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_MAX_BYTES: int(1024, 1024 * 1024 * 1024 * 1024).default(2 * 1024 * 1024 * 1024),
  MEDIA_STORE: z.enum(['local', 's3'], { message: 'MEDIA_STORE must be local or s3' }).default('local'),
  S3_ENDPOINT: z.string().url('S3_ENDPOINT must be an address such as http://127.0.0.1:9000').optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3_BUCKET must be a bucket name: 3-63 lower-case letters, digits, dots and hyphens')
    .optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9][A-Za-z0-9._-]*\/)*$/, 'S3_PREFIX must be folder names each ending in / (family/ or sites/family/)')
    .default(''),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  FIVETOOLS_DIR: z.string().min(1).optional(),
  FINANCE_DOCUMENT_MAX_BYTES: int(1024, 1024 * 1024 * 1024).default(10 * 1024 * 1024),
  DEV_COMMANDS_FILE: z.string().min(1).optional(),
  GAME_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]{1,253}$/, 'GAME_HOST must be a host name or an IP address')
    .default('localhost'),
  CLIMBING_PASSES_PER_MONTH: int(0, 100000).optional(),
  YTDLP_PATH: z.string().min(1).default('yt-dlp'),
  DOWNLOAD_ALLOW_PRIVATE_HOSTS: bool.default(false),
  DOWNLOAD_CONCURRENCY: int(1, 64).default(2),
  DOWNLOAD_TIMEOUT_MINUTES: int(1, 24 * 60).default(30),
  DOWNLOAD_MAX_MB: int(1, 1024 * 1024).default(4096),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEY_FILE: z.string().min(1).optional(),
  BACKUP_MEDIA: z.enum(['include', 'skip'], { message: 'BACKUP_MEDIA must be include or skip' }).default('include'),
  BACKUP_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'BACKUP_AT must be a time of day as HH:MM (03:00)')
    .default('03:00'),
  BACKUP_KEEP: z.string().default('7d,4w,6m').transform((value, ctx) => {
    const keep = parseBackupKeep(value);
    if (keep === null) {
      ctx.addIssue({ code: 'custom', message: 'BACKUP_KEEP must list counts of days, weeks and months kept, such as 7d,4w,6m' });
      return z.NEVER;
    }
    return keep;
  }),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'VAPID_SUBJECT must be mailto:you@example.org or an https:// address')
    .optional(),
  PUSH_ALLOWED_HOSTS: z.string().default(''),
  WEBHOOK_ALLOWED_HOSTS: z.string().default(''),
  PEOPLE_INDEXING: z.enum(['on', 'off']).default('on'),
});

/** How many scheduled backups to keep: the newest of each of the last N days, weeks and months. */
export type BackupKeep = { days: number; weeks: number; months: number };

export function parseBackupKeep(value: string): BackupKeep | null {
  const keep: BackupKeep = { days: 0, weeks: 0, months: 0 };
  const seen = new Set<string>();
  for (const part of value.split(',').map((p) => p.trim())) {
    const match = /^(\d{1,4})([dwm])$/.exec(part);
    if (!match?.[1] || !match[2] || seen.has(match[2])) return null;
    seen.add(match[2]);
    keep[match[2] === 'd' ? 'days' : match[2] === 'w' ? 'weeks' : 'months'] = Number(match[1]);
  }
  return keep.days + keep.weeks + keep.months > 0 ? keep : null;
}

/** Fastify's trustProxy forms: a boolean, a hop count, or proxy addresses and CIDRs. */
export type TrustProxy = boolean | number | string[];

export function parseTrustProxy(value: string): TrustProxy | null {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no' || v === '' || v === '0') return false;
  // A number is the count of proxies in front (Fastify's hop count): 1 for one reverse proxy.
  if (/^\d{1,3}$/.test(v)) return Number(v);
  const parts = v.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const address = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)(?:\/\d{1,3})?$/;
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  if (parts.length === 0 || !parts.every((p) => address.test(p) || named.has(p))) return null;
  return parts;
}

/** Whether HOST takes connections from this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h) || /^::ffff:127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * A hop count (or true) believes X-Forwarded-For and -Port from whoever connects: on a port others can
 * reach, anyone could pose as this machine (the owner's first sign-up) or as port 8443. Refused then,
 * unless the owner says a firewall lets only the proxy connect.
 */
export function trustProxyRefusal(trust: TrustProxy, host: string, onlyProxyConnects: boolean): string | null {
  if (onlyProxyConnects || isLoopbackHost(host) || !(trust === true || typeof trust === 'number')) return null;
  const value = trust === true ? 'true' : String(trust);
  return (
    `TRUST_PROXY=${value} believes X-Forwarded-* from anyone who can reach HOST=${host}, who could then pose as this machine or as port 8443. ` +
    `Name the proxy instead (TRUST_PROXY=127.0.0.1 or its CIDR), listen on HOST=127.0.0.1, or set TRUST_PROXY_ONLY_PROXY_CONNECTS=true if a firewall lets only the proxy connect.`
  );
}

/** PUBLIC_HOSTS as lower-case names; a leading dot takes the name's subdomains too. */
function parseHosts(value: string): string[] {
  return value
    .split(',')
    .map((h) => h.trim().toLowerCase().replace(/\.$/, ''))
    .filter((h) => h !== '');
}

export type Env = z.infer<typeof schema>;

export type Config = {
  port: number;
  /** A second port to listen on (EXTRA_PORT, 8443), or null. */
  extraPort: number | null;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  clientDist: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: TrustProxy;
  publicHosts: string[];
  /** PUBLIC_URL without a trailing slash, or null. */
  publicUrl: string | null;
  /** The family's time zone (SITE_TIME_ZONE, else the server's own). */
  timeZone: string;
  sessionDays: number;
  /** How long a live-feed stream lasts before the page is asked to reconnect (LIVE_STREAM_SECONDS). */
  liveStreamMs: number;
  argon2: { memoryKiB: number; timeCost: number; parallelism: number };
  bodyLimit: number;
  loginThrottle: { maxFailures: number; windowMs: number };
  signupThrottle: { maxAttempts: number; windowMs: number };
  timeouts: { requestMs: number; idleMs: number; shutdownMs: number };
  mediaDir: string;
  mediaMaxBytes: number;
  /** Where media live: the local disk (MEDIA_DIR), or an S3-compatible bucket (temporary files still under MEDIA_DIR). */
  mediaStore: { kind: 'local' } | ({ kind: 's3' } & S3Settings);
  /** The bucket of the S3_* settings whenever S3_BUCKET is set, even with MEDIA_STORE=local: what `npm run media -- move` moves to and from. */
  bucket: S3Settings | null;
  /** The 5eTools mirror's files (absolute). */
  fivetoolsDir: string;
  financeDocumentMaxBytes: number;
  /** The owner's Dev Dash commands file (absolute), read and checked by the dev dashboard at start; null when DEV_COMMANDS_FILE is unset. */
  devCommandsFile: string | null;
  gameHost: string;
  climbingPassesPerMonth: number | null;
  download: { ytdlpPath: string; allowPrivateHosts: boolean; concurrency: number; timeoutMs: number; maxBytes: number };
  /** Scheduled backups: off when dir is null. `at` is a local time of day, HH:MM. */
  backup: { dir: string | null; at: string; keep: BackupKeep };
  /** The key every backup archive is signed with (BACKUP_KEY_FILE). */
  backupKeyFile: string;
  /** Whether backups take the stored media (BACKUP_MEDIA). */
  backupMedia: 'include' | 'skip';
  /** Web Push: the VAPID subject, and the push hosts allowed on private addresses (lower case). */
  push: { subject: string; allowedHosts: string[] };
  /** The hosts webhooks may be sent to (WEBHOOK_ALLOWED_HOSTS, lower case): no others. */
  webhooks: { allowedHosts: string[] };
  /** Whether this instance runs the pictures' indexing worker (faces, people, tags); the owner's switch on the Admin page turns the feature off for the whole site. */
  peopleIndexing: boolean;
};

export type S3Settings = {
  endpoint: string | null;
  region: string;
  bucket: string;
  /** '' or folder names each ending in '/'. */
  prefix: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
};

export class ConfigError extends Error {}

function mediaStoreOf(e: Env, bucket: S3Settings | null): Config['mediaStore'] {
  if (e.MEDIA_STORE === 'local') return { kind: 'local' };
  if (!bucket) throw new ConfigError('MEDIA_STORE=s3 needs S3_BUCKET (and S3_ENDPOINT for anything but AWS S3)');
  return { kind: 's3', ...bucket };
}

/** The bucket the S3_* settings describe, whatever MEDIA_STORE says (a move switches to it at run time); null without S3_BUCKET. */
function bucketOf(e: Env): S3Settings | null {
  if (!e.S3_BUCKET) return null;
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK\'s usual sources');
  }
  return {
    endpoint: e.S3_ENDPOINT ?? null,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    prefix: e.S3_PREFIX,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : null,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** Reads the configuration; throws a ConfigError naming the variable when one is invalid. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, root: string = findRepoRoot()): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${issue?.path.join('.') ?? 'environment'}: ${issue?.message ?? 'bad value'}`);
  }
  const e = parsed.data;
  const refusal = trustProxyRefusal(e.TRUST_PROXY, e.HOST, e.TRUST_PROXY_ONLY_PROXY_CONNECTS);
  if (refusal) throw new ConfigError(refusal);
  const dataDir = path.resolve(root, e.DATA_DIR);
  return {
    port: e.PORT,
    extraPort: e.EXTRA_PORT ?? null,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    clientDist: path.resolve(root, e.CLIENT_DIST),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    publicHosts: parseHosts(e.PUBLIC_HOSTS),
    publicUrl: e.PUBLIC_URL ?? null,
    timeZone: e.SITE_TIME_ZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    sessionDays: e.SESSION_DAYS,
    liveStreamMs: e.LIVE_STREAM_SECONDS * 1000,
    argon2: { memoryKiB: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST, parallelism: e.ARGON2_PARALLELISM },
    bodyLimit: e.BODY_LIMIT_BYTES,
    loginThrottle: { maxFailures: e.LOGIN_MAX_FAILURES, windowMs: e.LOGIN_WINDOW_MINUTES * 60_000 },
    signupThrottle: { maxAttempts: e.SIGNUP_MAX_PER_ADDRESS, windowMs: e.SIGNUP_WINDOW_MINUTES * 60_000 },
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      idleMs: e.IDLE_TIMEOUT_SECONDS * 1000,
      shutdownMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
    mediaDir: e.MEDIA_DIR ? path.resolve(root, e.MEDIA_DIR) : path.join(path.resolve(root, e.DATA_DIR), 'media'),
    mediaMaxBytes: e.MEDIA_MAX_BYTES,
    mediaStore: mediaStoreOf(e, bucketOf(e)),
    bucket: bucketOf(e),
    fivetoolsDir: e.FIVETOOLS_DIR ? path.resolve(root, e.FIVETOOLS_DIR) : path.join(dataDir, '5etools'),
    financeDocumentMaxBytes: e.FINANCE_DOCUMENT_MAX_BYTES,
    devCommandsFile: e.DEV_COMMANDS_FILE === undefined ? null : path.resolve(root, e.DEV_COMMANDS_FILE),
    gameHost: e.GAME_HOST,
    climbingPassesPerMonth: e.CLIMBING_PASSES_PER_MONTH ?? null,
    download: {
      ytdlpPath: e.YTDLP_PATH,
      allowPrivateHosts: e.DOWNLOAD_ALLOW_PRIVATE_HOSTS,
      concurrency: e.DOWNLOAD_CONCURRENCY,
      timeoutMs: e.DOWNLOAD_TIMEOUT_MINUTES * 60_000,
      maxBytes: e.DOWNLOAD_MAX_MB * 1024 * 1024,
    },
    backup: { dir: e.BACKUP_DIR ? path.resolve(root, e.BACKUP_DIR) : null, at: e.BACKUP_AT, keep: e.BACKUP_KEEP },
    backupKeyFile: e.BACKUP_KEY_FILE ? path.resolve(root, e.BACKUP_KEY_FILE) : path.join(dataDir, 'backup.key'),
    backupMedia: e.BACKUP_MEDIA,
    push: {
      subject: e.VAPID_SUBJECT ?? (e.PUBLIC_URL?.startsWith('https://') ? e.PUBLIC_URL.replace(/\/$/, '') : 'mailto:webpush@localhost'),
      allowedHosts: parseHosts(e.PUSH_ALLOWED_HOSTS),
    },
    webhooks: { allowedHosts: parseHosts(e.WEBHOOK_ALLOWED_HOSTS) },
    peopleIndexing: e.PEOPLE_INDEXING === 'on',
  };
}
