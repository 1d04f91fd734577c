import os from 'node:os';
import type { Config } from '../config.ts';

/**
 * The whole address of the site for links printed outside a browser: PUBLIC_URL, else this machine's
 * LAN address (or the HOST it listens on) and PORT.
 */
export function siteUrl(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  let host = config.host;
  if (host === '0.0.0.0' || host === '::') {
    const lan = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    host = lan?.address ?? 'localhost';
  }
  if (host.includes(':')) host = `[${host}]`;
  return `http://${host}:${config.port}`;
}
