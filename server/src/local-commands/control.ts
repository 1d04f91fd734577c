import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { StoreState } from '../media/switching.ts';

/**
 * The local control channel of a server on the embedded database (PGlite). PGlite opens its folder
 * in one process only, so `npm run backup` cannot open it while the server runs; instead it asks the
 * server, over a Unix domain socket inside DATA_DIR (DATA_DIR/control.sock, mode 0600, removed on
 * close), to write the archive itself with the same backupTo the offline backup uses.
 *
 * Authentication is the file system's, like PostgreSQL's peer authentication: only the user who runs
 * the server (and root) can open the socket. It is not reachable over the network and is not an HTTP
 * route of the site (it has its own tiny http.Server on the socket, not Fastify), so it is not in
 * the permission table. Requests: POST /backup {"file": "/absolute/path.tar.gz"} → 200 with a
 * summary of the verified archive, 409 while another backup runs, or 4xx/500 with {"error": "..."};
 * GET /setup-code → {"code": "ABCDE-FGHJK"} while no account exists, else {"code": null}
 * (`npm run user -- setup-code`). `npm run pictures -- import` streams each file: POST
 * /pictures-import/file with its description in the `x-import` header and its bytes as the body.
 */
export const CONTROL_SOCKET = 'control.sock';

export const controlSocketPath = (dataDir: string) => path.join(dataDir, CONTROL_SOCKET);

export type ControlChannel = { path: string; close: () => Promise<void> };

/**
 * What the channel can do for the command-line tools, by name; a command the server was not given
 * answers 404. A new command is a key here, its row in `routes` below (the typecheck asks for it)
 * and a `request...` function at the end of this file for its command-line tool.
 */
export type ControlCommands = {
  /** `npm run backup` while the server holds the database: what it wrote; a refusal is a ControlRequestError (400, or 409 while busy). */
  backup?: (file: string) => Promise<BackupSummary>;
  setupCode?: () => Promise<string | null>;
  /** `npm run user` commands that change accounts (reset-link, token): the lines to print; an Error's message is the one line on failure. */
  account?: (command: string, args: string[]) => Promise<string[]>;
  /** `npm run media -- move`: records (and switches to) the given store when one is given; where the media are now. */
  mediaStore?: (state: StoreState | null) => Promise<StoreState | null>;
  /** `npm run pictures -- import`: who the pictures belong to (null: the owner) and the upload cap; an Error's message is the one line on failure. */
  picturesImportStart?: (as: string | null) => Promise<PictureImportStart>;
  /** One file of `npm run pictures -- import`, through the upload pipeline: what became of it. */
  picturesImportFile?: (memberId: number, meta: PictureImportMeta, bytes: Readable, signal: AbortSignal) => Promise<PictureImportOutcome>;
};

/** What `npm run pictures -- import` learns first: the member the pictures belong to, and the largest file the pipeline takes. */
export type PictureImportStart = { member: { id: number; name: string }; maxBytes: number };

/**
 * What an import knows of a file besides its bytes (from a takeout's sidecar and folders): used
 * only where the file says nothing itself. `date` is `YYYY-MM-DD`; `album` the album's title.
 */
export type PictureImportMeta = {
  name: string;
  date?: string | null;
  position?: { lat: number; lon: number } | null;
  caption?: string | null;
  favorite?: boolean;
  album?: string | null;
};

/** Why the pipeline did not take a file, as the import's summary counts it. */
export type PictureImportSkip = 'not a picture or video' | 'too large' | 'unreadable';

export type PictureImportOutcome =
  | { result: 'imported' | 'already there'; pictureId: number; albumMade: boolean }
  | { result: 'skipped'; reason: PictureImportSkip; detail: string };

/** What `npm run backup` prints about the archive the server wrote. */
export type BackupSummary = { file: string; size: number; tables: number; files: number; createdAt: string };

type Log = { info: (msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** A request the command refuses (400 unless said otherwise): its message goes back as it is. */
export class ControlRequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/**
 * How one command is asked and answered: its method and path, what it does (for the message of a
 * failure: "The server could not <doing>: ..."), and `run` with the command and the request's JSON
 * body (POST). `status` names the status of an expected failure; any other is 500 and logged.
 */
type Route<Command> = {
  method: 'GET' | 'POST';
  path: string;
  doing: string | null;
  run: (command: Command, body: unknown, log: Log | undefined, req: http.IncomingMessage, signal: AbortSignal) => Promise<object>;
  status?: (error: unknown) => number | undefined;
  /** The body is the command's to read as a stream (a file's bytes), not JSON. */
  stream?: boolean;
};

const routes: { [Name in keyof ControlCommands]-?: Route<NonNullable<ControlCommands[Name]>> } = {
  backup: {
    method: 'POST',
    path: '/backup',
    doing: 'write the backup',
    async run(backup, body, log) {
      const { file } = (body ?? {}) as { file?: unknown };
      if (typeof file !== 'string' || !path.isAbsolute(file)) throw new ControlRequestError('The backup file must be an absolute path');
      const summary = await backup(file);
      log?.info(`backup of the live database written to ${file}`);
      return summary;
    },
  },
  setupCode: {
    method: 'GET',
    path: '/setup-code',
    doing: 'read the setup code',
    run: async (setupCode) => ({ code: await setupCode() }),
  },
  account: {
    method: 'POST',
    path: '/account',
    // The command's own refusal is the one line `npm run user` prints, as when it runs offline.
    doing: null,
    async run(account, body) {
      const { command, args } = (body ?? {}) as { command?: unknown; args?: unknown };
      if (typeof command !== 'string' || !Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new ControlRequestError('Bad account command');
      return { lines: await account(command, args as string[]) };
    },
    status: () => 400,
  },
  mediaStore: {
    method: 'POST',
    path: '/media-store',
    doing: 'switch the media store',
    async run(mediaStore, body, log) {
      const { state } = (body ?? {}) as { state?: unknown };
      if (state !== null && !isStoreState(state)) throw new ControlRequestError('Bad media store');
      const now = await mediaStore(state);
      if (state) log?.info(`media store switched to ${state.active}${state.previous ? ` (reading what is not copied yet from ${state.previous})` : ''}`);
      return { state: now };
    },
  },
  picturesImportStart: {
    method: 'POST',
    path: '/pictures-import/start',
    doing: null,
    async run(start, body) {
      const { as } = (body ?? {}) as { as?: unknown };
      if (as !== null && typeof as !== 'string') throw new ControlRequestError('Bad import request');
      return start(as);
    },
    status: () => 400,
  },
  picturesImportFile: {
    method: 'POST',
    path: '/pictures-import/file',
    doing: 'import the file',
    stream: true,
    async run(file, _body, _log, req, signal) {
      const header = req.headers['x-import'];
      let parsed: { member?: unknown; meta?: unknown };
      try {
        parsed = JSON.parse(Buffer.from(typeof header === 'string' ? header : '', 'base64url').toString('utf8')) as typeof parsed;
      } catch {
        throw new ControlRequestError('Bad import header');
      }
      const meta = parsed.meta as PictureImportMeta | undefined;
      if (typeof parsed.member !== 'number' || typeof meta !== 'object' || meta === null || typeof meta.name !== 'string') throw new ControlRequestError('Bad import header');
      return file(parsed.member, meta, req, signal);
    },
  },
};

const STORES: readonly unknown[] = ['local', 's3'];
function isStoreState(value: unknown): value is StoreState {
  const v = value as Partial<StoreState> | null;
  return typeof v === 'object' && v !== null && STORES.includes(v.active) && (v.previous === null || STORES.includes(v.previous));
}

const MAX_BODY = 64 * 1024;

function reply(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_BODY) throw new ControlRequestError('The request is too large');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ControlRequestError(error instanceof Error ? error.message : String(error));
  }
}

/** Runs the command a request names, if the server was given it, and answers with its JSON. */
async function answer(commands: ControlCommands, req: http.IncomingMessage, res: http.ServerResponse, log: Log | undefined): Promise<void> {
  const name = (Object.keys(routes) as (keyof ControlCommands)[]).find((n) => routes[n].method === req.method && routes[n].path === req.url);
  const command = name && commands[name];
  if (!name || !command) return reply(res, 404, { error: `Unknown command ${req.method} ${req.url}` });
  // One route per name: the pair is typed together, whichever name it is.
  const route = routes[name] as Route<typeof command>;
  // A command that reads the body as a stream stops when the tool goes away mid-file.
  const gone = new AbortController();
  const onClose = () => {
    if (!req.readableEnded) gone.abort(new Error('the command closed the connection'));
  };
  req.once('close', onClose);
  try {
    const body = route.method === 'POST' && !route.stream ? await readJson(req) : undefined;
    const answered = await route.run(command, body, log, req, gone.signal);
    if (route.stream && !req.readableEnded) req.resume();
    reply(res, 200, answered);
  } catch (error) {
    // What the command did not read is drained, so the answer reaches the tool.
    if (route.stream && !req.readableEnded) req.resume();
    const status = error instanceof ControlRequestError ? error.status : route.status?.(error);
    // A tool that went away mid-file (stopped, killed, a damaged zip entry) is not the server's failure.
    if (status === undefined && !gone.signal.aborted) log?.error({ err: error }, `${req.method} ${req.url} over the control socket failed`);
    const message = error instanceof Error ? error.message : String(error);
    reply(res, status ?? 500, { error: route.doing === null ? message : `The server could not ${route.doing}: ${message}` });
  } finally {
    req.off('close', onClose);
  }
}

/** Listens on DATA_DIR/control.sock. The caller holds the PGlite lock, so a socket left there is stale. */
export async function startControlChannel(commands: ControlCommands, dataDir: string, log?: Log): Promise<ControlChannel> {
  const socketPath = controlSocketPath(dataDir);
  const server = http.createServer((req, res) => void answer(commands, req, res, log));
  fs.rmSync(socketPath, { force: true });
  // Created 0600 from the start (umask), not chmod-ed after a window where others could connect.
  // Worker threads cannot change the umask; the chmod below still applies there.
  let oldMask: number | undefined;
  try {
    oldMask = process.umask(0o177);
  } catch {
    oldMask = undefined;
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
      if (oldMask !== undefined) process.umask(oldMask);
      oldMask = undefined;
    });
  } finally {
    if (oldMask !== undefined) process.umask(oldMask);
  }
  fs.chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/** POST /account {"command", "args"} → {"lines"}, or 400 {"error"} with the command's own message. */
/** Asks the server holding DATA_DIR to run an account command of `npm run user`; the lines to print. */
export async function requestAccountCommand(dataDir: string, command: string, args: string[]): Promise<string[]> {
  const answer = await ask<{ lines?: string[] }>(dataDir, { path: routes.account.path, body: { command, args }, fail: (message) => new Error(message), who: 'this' });
  return answer.lines ?? [];
}

/** Raised when no server answers on the socket (none listens, or an older server without it). */
export class ControlUnavailableError extends Error {}

type Ask = { path: string; body?: object; fail: (message: string) => Error; who: string };

/** One request over DATA_DIR/control.sock: the parsed JSON of a 200, else `fail` with the server's message. */
function ask<T>(dataDir: string, { path: urlPath, body, fail, who }: Ask): Promise<T> {
  const socketPath = controlSocketPath(dataDir);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: urlPath, method: text === undefined ? 'GET' : 'POST', headers }, (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (answer += chunk));
      res.on('end', () => {
        let parsed: { error?: string };
        try {
          parsed = JSON.parse(answer) as typeof parsed;
        } catch {
          return reject(fail(`The server answered ${res.statusCode} without a readable message`));
        }
        if (res.statusCode === 200) resolve(parsed as T);
        else reject(fail(parsed.error ?? `The server answered ${res.statusCode}`));
      });
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') reject(new ControlUnavailableError(`No server answers on ${socketPath}`));
      else if (error.code === 'EACCES') reject(fail(`${socketPath} belongs to another user: run ${who} as the user who runs the server`));
      else reject(error);
    });
    req.end(text);
  });
}

/** Asks the server holding DATA_DIR to write a backup to `file` (absolute); its refusal is thrown as `fail` makes it. */
export function requestBackup(dataDir: string, file: string, fail: (message: string) => Error = (message) => new Error(message)): Promise<BackupSummary> {
  return ask<BackupSummary>(dataDir, { path: routes.backup.path, body: { file }, fail, who: 'the backup' });
}

/** Asks the server holding DATA_DIR for the first account's setup code (null once an account exists). */
export async function requestSetupCode(dataDir: string): Promise<string | null> {
  const answer = await ask<{ code?: string | null }>(dataDir, { path: routes.setupCode.path, fail: (message) => new Error(message), who: 'this' });
  return answer.code ?? null;
}

/** Asks the server holding DATA_DIR where the media are, switching them first when `state` is given (`npm run media -- move`). */
export async function requestMediaStore(dataDir: string, state: StoreState | null): Promise<StoreState | null> {
  const answer = await ask<{ state?: StoreState | null }>(dataDir, { path: routes.mediaStore.path, body: { state }, fail: (message) => new Error(message), who: 'the move' });
  return answer.state ?? null;
}

/** Asks the server holding DATA_DIR who an import's pictures belong to (`as`, or the owner) and the upload cap. */
export function requestPictureImportStart(dataDir: string, as: string | null): Promise<PictureImportStart> {
  return ask<PictureImportStart>(dataDir, { path: routes.picturesImportStart.path, body: { as }, fail: (message) => new Error(message), who: 'the import' });
}

/** Raised when the file's own bytes could not be read (a broken zip entry): nothing of it was kept. */
export class ImportSourceError extends Error {}

/**
 * Streams one file to the server holding DATA_DIR, into its upload pipeline; what became of it.
 * An error of `bytes` is an ImportSourceError (the server drops what it received).
 */
export function requestPictureImportFile(dataDir: string, memberId: number, meta: PictureImportMeta, bytes: Readable): Promise<PictureImportOutcome> {
  const socketPath = controlSocketPath(dataDir);
  const header = Buffer.from(JSON.stringify({ member: memberId, meta }), 'utf8').toString('base64url');
  return new Promise((resolve, reject) => {
    let sourceFailed: Error | null = null;
    const req = http.request({ socketPath, path: routes.picturesImportFile.path, method: 'POST', headers: { 'x-import': header, 'content-type': 'application/octet-stream' } }, (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (answer += chunk));
      res.on('end', () => {
        if (sourceFailed) return reject(sourceFailed);
        let parsed: { error?: string };
        try {
          parsed = JSON.parse(answer) as typeof parsed;
        } catch {
          return reject(new Error(`The server answered ${res.statusCode} without a readable message`));
        }
        if (res.statusCode === 200) resolve(parsed as PictureImportOutcome);
        else reject(new Error(parsed.error ?? `The server answered ${res.statusCode}`));
      });
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (sourceFailed) reject(sourceFailed);
      else if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') reject(new ControlUnavailableError(`No server answers on ${socketPath}`));
      else reject(error);
    });
    bytes.once('error', (error: Error) => {
      sourceFailed = new ImportSourceError(error.message);
      req.destroy(sourceFailed);
    });
    bytes.pipe(req);
  });
}
