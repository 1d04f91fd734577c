import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

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
    name: 'HOST',
    default: '0.0.0.0',
    meaning: 'Address to listen on; 0.0.0.0 serves the LAN, 127.0.0.1 only this machine',
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
      'Behind a reverse proxy: the proxy addresses or CIDRs (127.0.0.1,10.0.0.0/8) or the number of proxy hops (1) whose X-Forwarded-* headers give the client address and https; true trusts any sender (only when nothing else can reach the port)',
  },
  {
    name: 'PUBLIC_HOSTS',
    default: '(unset)',
    meaning:
      'Host names the site answers to besides IP addresses and localhost, comma-separated (example.org,www.example.org; .example.org takes every subdomain); any other Host header is refused',
  },
  { name: 'SESSION_DAYS', default: '30', meaning: 'Sliding session lifetime in days (renewed at most hourly)' },
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
] as const;

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  PORT: int(0, 65535).default(8080),
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
  PUBLIC_HOSTS: z.string().default(''),
  SESSION_DAYS: int(1, 3650).default(30),
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
});

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
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  clientDist: string;
  logLevel: Env['LOG_LEVEL'];
  trustProxy: TrustProxy;
  publicHosts: string[];
  sessionDays: number;
  argon2: { memoryKiB: number; timeCost: number; parallelism: number };
  bodyLimit: number;
  loginThrottle: { maxFailures: number; windowMs: number };
  signupThrottle: { maxAttempts: number; windowMs: number };
  timeouts: { requestMs: number; idleMs: number; shutdownMs: number };
};

export class ConfigError extends Error {}

/** Reads the configuration; throws a ConfigError naming the variable when one is invalid. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, root: string = findRepoRoot()): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid ${issue?.path.join('.') ?? 'environment'}: ${issue?.message ?? 'bad value'}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(root, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    clientDist: path.resolve(root, e.CLIENT_DIST),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    publicHosts: parseHosts(e.PUBLIC_HOSTS),
    sessionDays: e.SESSION_DAYS,
    argon2: { memoryKiB: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST, parallelism: e.ARGON2_PARALLELISM },
    bodyLimit: e.BODY_LIMIT_BYTES,
    loginThrottle: { maxFailures: e.LOGIN_MAX_FAILURES, windowMs: e.LOGIN_WINDOW_MINUTES * 60_000 },
    signupThrottle: { maxAttempts: e.SIGNUP_MAX_PER_ADDRESS, windowMs: e.SIGNUP_WINDOW_MINUTES * 60_000 },
    timeouts: {
      requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      idleMs: e.IDLE_TIMEOUT_SECONDS * 1000,
      shutdownMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
  };
}
