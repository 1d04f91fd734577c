import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { SERVER_PREFIXES } from '@site/contracts';

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const isServerPath = (url: string) => SERVER_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));

/**
 * Serves the built client: hashed files under /assets cached for a year, everything else revalidated.
 * The build writes a .br and a .gz beside each text file (client/precompress.ts); a browser that
 * accepts one gets it (brotli first), with Vary: Accept-Encoding so caches keep them apart.
 * A GET of any other unknown path answers the prerendered page at <path>/index.html when the client
 * built one, else the client's index.html with 200, and the client router shows its own not-found view.
 */
export async function registerClient(app: FastifyInstance, clientDist: string): Promise<void> {
  const indexFile = path.join(clientDist, 'index.html');
  const built = fs.existsSync(indexFile);
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
    return reply.code(200).header('cache-control', 'no-cache').header('vary', 'accept-encoding').sendFile(file, clientDist);
  });
}
