import fs from 'node:fs';

/**
 * Resident memory of a process and of all its descendants (bytes), read from /proc: what the picture
 * bomb test and bench:pictures hold the server and its decoding children to. 0 once the process is gone.
 */
export function treeRss(pid: number): { own: number; children: number } {
  const rss = (p: number) => Number(/VmRSS:\s*(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  const childrenOf = (p: number) =>
    fs.readdirSync(`/proc/${p}/task`).flatMap((task) => fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  let children = 0;
  const walk = (p: number) => {
    for (const child of childrenOf(p)) {
      try {
        children += rss(child);
        walk(child);
      } catch {
        // It ended between the listing and the read.
      }
    }
  };
  try {
    walk(pid);
    return { own: rss(pid), children };
  } catch {
    return { own: 0, children: 0 };
  }
}
