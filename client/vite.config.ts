import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin } from 'vite';
// A relative path: the config loader leaves workspace packages to Node, which cannot run .ts.
import { DEFAULT_COLORS } from '../contracts/src/settings/settings.schemas.ts';
import { owner } from './src/owner.config.ts';
import { colorsToCss } from './src/lib/colors.ts';
import { precompress } from './precompress.ts';

const root = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? '8080'}`;

/**
 * Fills the owner's title into both HTML pages, paints the default colours before any script runs
 * (a style attribute, which the CSP allows, instead of an inline script, which it does not), and after
 * the build renders the About page to static markup inside dist/about/index.html so the public page
 * shows its content at once and only needs a small script to hydrate.
 */
function sitePages(): Plugin {
  let outDir = path.join(root, 'dist');
  return {
    name: 'site-pages',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    transformIndexHtml(html) {
      return html
        .replaceAll('%SITE_TITLE%', owner.siteTitle)
        .replace('<html lang="en">', `<html lang="en" style="${colorsToCss(DEFAULT_COLORS)}">`);
    },
    async writeBundle() {
      const server = await createServer({
        configFile: false,
        root,
        logLevel: 'error',
        plugins: [react()],
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: 'custom',
      });
      try {
        const mod = (await server.ssrLoadModule('/src/about-page/prerender.tsx')) as { prerenderAbout: () => string };
        const file = path.join(outDir, 'about', 'index.html');
        const html = await readFile(file, 'utf8');
        if (!html.includes('<!--prerendered-about-->')) throw new Error(`${file} has no prerender marker`);
        await writeFile(file, html.replace('<!--prerendered-about-->', mod.prerenderAbout()));
      } finally {
        await server.close();
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), sitePages(), precompress()],
  build: {
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      // Schemas built at the top of a contracts module are values nobody on the page may use; marking
      // zod's builders pure lets pages that need one message or default leave the zod runtime behind.
      treeshake: { manualPureFunctions: ['z'] },
      input: {
        app: path.join(root, 'index.html'),
        about: path.join(root, 'about', 'index.html'),
      },
    },
  },
  server: {
    proxy: {
      '/trpc': apiTarget,
      '/api': apiTarget,
      '/private': apiTarget,
      '/healthz': apiTarget,
    },
  },
});
