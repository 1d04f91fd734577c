import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { BackupBusyError, BackupError, type BackupResult } from './backup.ts';

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
 * (`npm run user -- setup-code`).
 */
export const CONTROL_SOCKET = 'control.sock';

export const controlSocketPath = (dataDir: string) => path.join(dataDir, CONTROL_SOCKET);

export type ControlChannel = { path: string; close: () => Promise<void> };

/** What the channel can do for the command-line tools; a command left out answers 404. */
export type ControlCommands = {
  backup?: (file: string) => Promise<BackupResult>;
  setupCode?: () => Promise<string | null>;
};

/** What the command prints about a backup the server wrote. */
export type BackupSummary = { file: string; size: number; tables: number; files: number; createdAt: string };

export const summarize = (result: BackupResult): BackupSummary => ({
  file: result.file,
  size: result.size,
  tables: result.manifest.tables.length,
  files: result.manifest.entries.filter((e) => !e.name.startsWith('db/')).length,
  createdAt: result.manifest.createdAt,
});

type Log = { info: (msg: string) => void; warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

const MAX_BODY = 64 * 1024;

function reply(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_BODY) throw new BackupError('The request is too large');
  }
  return text;
}

/** Listens on DATA_DIR/control.sock. The caller holds the PGlite lock, so a socket left there is stale. */
export async function startControlChannel(commands: ControlCommands, dataDir: string, log?: Log): Promise<ControlChannel> {
  const socketPath = controlSocketPath(dataDir);
  const { backup, setupCode } = commands;
  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === '/setup-code' && setupCode) {
        return setupCode().then(
          (code) => reply(res, 200, { code }),
          (error: unknown) => reply(res, 500, { error: `The server could not read the setup code: ${String(error)}` }),
        );
      }
      if (req.method !== 'POST' || req.url !== '/backup' || !backup) return reply(res, 404, { error: `Unknown command ${req.method} ${req.url}` });
      try {
        const { file } = JSON.parse(await readBody(req)) as { file?: unknown };
        if (typeof file !== 'string' || !path.isAbsolute(file)) throw new BackupError('The backup file must be an absolute path');
        const result = await backup(file);
        log?.info(`backup of the live database written to ${file}`);
        reply(res, 200, summarize(result));
      } catch (error) {
        const known = error instanceof BackupError || error instanceof SyntaxError;
        if (!known) log?.error({ err: error }, 'backup over the control socket failed');
        const message = error instanceof Error ? error.message : String(error);
        const status = error instanceof BackupBusyError ? 409 : known ? 400 : 500;
        reply(res, status, { error: `The server could not write the backup: ${message}` });
      }
    })();
  });
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

/** Asks the server holding DATA_DIR to write a backup to `file` (absolute). */
export function requestBackup(dataDir: string, file: string): Promise<BackupSummary> {
  return ask<BackupSummary>(dataDir, { path: '/backup', body: { file }, fail: (message) => new BackupError(message), who: 'the backup' });
}

/** Asks the server holding DATA_DIR for the first account's setup code (null once an account exists). */
export async function requestSetupCode(dataDir: string): Promise<string | null> {
  const answer = await ask<{ code?: string | null }>(dataDir, { path: '/setup-code', fail: (message) => new Error(message), who: 'this' });
  return answer.code ?? null;
}
