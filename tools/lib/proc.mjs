// Process measurements shared by tools/bench-batch and the attack tests (tests/js/cli.mjs).
import { readFileSync, readdirSync } from 'node:fs';

/**
 * Resident memory of `pid` and all its descendants: ppid links from /proc/<pid>/stat, VmRSS from
 * /proc/<pid>/status. → { bytes, pids }
 */
export function treeRss(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    } // gone meanwhile
    const ppid = +stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]; // "(comm)" may hold spaces
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(+entry);
  }
  let bytes = 0;
  const pids = [];
  for (const queue = [pid]; queue.length;) {
    const p = queue.pop();
    pids.push(p);
    try {
      bytes += 1024 * +(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* exited */
    }
    queue.push(...(children.get(p) ?? []));
  }
  return { bytes, pids };
}
