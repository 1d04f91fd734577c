import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { SERVER_PREFIXES } from '@site/contracts';
import { pages, type PageRow } from '@site/contracts/permissions';

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const isServerPath = (url: string) => SERVER_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));

/** The build's per-page `<link>`s of the chunks a page needs beyond the shell (client/start-hints.ts, ROUTE_PRELOADS). */
const ROUTE_PRELOADS = path.join('.vite', 'route-preloads.json');
/** The build's per-address `<link>`s of the calls a page's first render needs (client/start-hints.ts, ADDRESS_PRELOADS). */
const ADDRESS_PRELOADS = path.join('.vite', 'address-preloads.json');

function readLinks(file: string): Record<string, string> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    return undefined;
  }
}

/** The page of the permission table an address opens: its href, or href/... when it has sub-paths; the longest wins. */
const pageRows = Object.entries(pages as Record<string, PageRow>)
  .map(([href, row]) => ({ href, deep: row.pattern?.endsWith('/*') ?? false }))
  .sort((a, b) => b.href.length - a.href.length);
export function pageOf(url: string): string | undefined {
  return pageRows.find(({ href, deep }) => url === href || (deep && url.startsWith(`${href}/`)))?.href;
}

type Html = { html: string; br: Buffer; gzip: Buffer };

/**
 * index.html for each page, with that page's chunks asked for in its head: the browser fetches them
 * beside the shell's script instead of after it has run (a round trip less before the page is painted
 * on a slow network); at a page's own address, also the calls its first render needs (the batch the
 * app asks for at start). Made once per page (and page address), compressed once; a build without the
 * preloads file (an old build, a test's folder) gets index.html as it is.
 */
function pageHtml(clientDist: string): (url: string) => Html | undefined {
  const preloads = readLinks(path.join(clientDist, ROUTE_PRELOADS));
  if (!preloads) return () => undefined;
  const exact = readLinks(path.join(clientDist, ADDRESS_PRELOADS)) ?? {};
  const index = fs.readFileSync(path.join(clientDist, 'index.html'), 'utf8');
  if (!index.includes('</head>')) return () => undefined;
  const made = new Map<string, Html>();
  return (url) => {
    const href = pageOf(url);
    const calls = Object.hasOwn(exact, url) ? exact[url] : undefined;
    const links = `${(href && preloads[href]) || ''}${calls ?? ''}`;
    if (!href || !links) return undefined;
    const key = calls === undefined ? href : `${url} with its calls`;
    let page = made.get(key);
    if (!page) {
      const html = index.replace('</head>', `${links}</head>`);
      page = { html, br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), gzip: gzipSync(html, { level: 9 }) };
      made.set(key, page);
    }
    return page;
  };
}

/**
 * Serves the built client: hashed files under /assets cached for a year, everything else revalidated.
 * The build writes a .br and a .gz beside each text file (client/precompress.ts); a browser that
 * accepts one gets it (brotli first), with Vary: Accept-Encoding so caches keep them apart.
 * A GET of any other unknown path answers the prerendered page at <path>/index.html when the client
 * built one, else the client's index.html with 200 (with the page's chunks preloaded: pageHtml), and
 * the client router shows its own not-found view.
 */
export async function registerClient(app: FastifyInstance, clientDist: string): Promise<void> {
  const indexFile = path.join(clientDist, 'index.html');
  const built = fs.existsSync(indexFile);
  const htmlFor = built ? pageHtml(clientDist) : () => undefined;
  if (built) {
    // Hashed build output: immutable. Everything else is sent by the not-found handler below.
    await app.register(fastifyStatic, {
      root: path.join(clientDist, 'assets'),
      prefix: '/assets/',
      wildcard: true,
      index: false,
      redirect: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        const inAssets = path.relative(path.join(clientDist, 'assets'), filePath);
        const hashed = !inAssets.startsWith('..') && !path.isAbsolute(inAssets);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        reply.header('vary', 'accept-encoding');
      },
    });
  }

  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    const url = (req.url.split('?', 1)[0] ?? '/').replace(/\/+$/, '') || '/';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isServerPath(url)) {
      return reply.code(404).send({ message: `Nothing at ${req.method} ${url}` });
    }
    if (!built) {
      return reply
        .code(200)
        .type('text/plain; charset=utf-8')
        .send('The site is running, but the client is not built yet. Run `npm run build` and restart.');
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(url);
    } catch {
      decoded = '/';
    }
    const relative = path.posix.normalize(decoded).replace(/^\/+/, '');
    const inside = relative !== '' && !relative.startsWith('..');
    const file =
      inside && isFile(path.join(clientDist, relative))
        ? relative
        : inside && isFile(path.join(clientDist, relative, 'index.html'))
          ? path.join(relative, 'index.html')
          : 'index.html';
    reply.code(200).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    const page = file === 'index.html' ? htmlFor(url) : undefined;
    if (!page) return reply.sendFile(file, clientDist);
    reply.type('text/html; charset=utf-8');
    // Chosen as @fastify/static chooses for the build's own .br and .gz files (q-values honoured).
    const encoding = negotiate(String(req.headers['accept-encoding'] ?? ''), ['br', 'gzip', 'identity']);
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(page.br);
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(page.gzip);
    return reply.send(page.html);
  });
}
