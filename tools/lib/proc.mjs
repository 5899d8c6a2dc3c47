// Process measurements shared by tools/bench-batch and the attack tests (tests/js/cli.mjs).
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync } from 'node:fs';

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

/**
 * A fresh cgroup that counts the CPU time of every process put in it and of all their descendants,
 * wherever they are reaped: Linux's count of waited-for children (cutime) loses whatever runs below
 * bubblewrap's pid namespace (its reaper is never waited for), which is every sandbox child. cgroup v2
 * (`cpu.stat` usage_usec, at /sys/fs/cgroup or /sys/fs/cgroup/unified) or v1 (`cpuacct.usage`); both
 * count a group's subgroups in it. → { dir, wrap(cmd, args) → [cmd, args] (the command starts inside the
 * group), ms(dir = the group) (CPU ms so far), subgroups() (the folders a command made in it), remove() }
 * or null where no group can be made (not root, no cgroup fs): callers then fall back to cutime.
 */
export function cpuGroup(name = `attnlab-cpu-${process.pid}-${++groups}`) {
  const v2 = (d) => Number(/^usage_usec (\d+)/m.exec(readFileSync(`${d}/cpu.stat`, 'utf8'))?.[1]) / 1000;
  const kinds = [
    ['/sys/fs/cgroup', 'cgroup.controllers', v2],
    ['/sys/fs/cgroup/unified', 'cgroup.controllers', v2],
    ['/sys/fs/cgroup/cpuacct', 'cpuacct.usage', (d) => Number(readFileSync(`${d}/cpuacct.usage`, 'utf8')) / 1e6],
  ];
  for (const [base, marker, usage] of kinds) {
    if (!existsSync(`${base}/${marker}`)) continue;
    const dir = `${base}/${name}`;
    try {
      mkdirSync(dir);
    } catch {
      continue; // not allowed here: the next kind
    }
    let ok = false;
    try {
      ok = Number.isFinite(usage(dir));
    } catch {
      /* unreadable */
    }
    if (!ok) {
      rmdirSync(dir);
      continue;
    }
    const subgroups = () =>
      readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => `${dir}/${e.name}`);
    return {
      dir,
      // sh puts itself in the group, then becomes the command: every process it starts is counted.
      wrap: (cmd, args) => ['/bin/sh', ['-c', `echo $$ > "${dir}/cgroup.procs" && exec "$@"`, 'sh', cmd, ...args]],
      ms: (d = dir) => usage(d),
      subgroups,
      remove() {
        for (const d of [...subgroups(), dir]) {
          try {
            rmdirSync(d);
          } catch {
            /* a process still in it: left for the system */
          }
        }
      },
    };
  }
  return null;
}
let groups = 0;
