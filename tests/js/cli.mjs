// The grader's CLI as the tests run it (and treeRss, the memory of a CLI's process tree, for the attack
// tests and tools/bench-batch): a child `node grader/cli.mjs …` of this tree (cli) or of a copy
// of it (cliIn), in that tree's root, its output as text without colours; --backend webgpu finds
// SwiftShader's Vulkan driver (VK_ICD_FILENAMES, as tools/test sets it).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VK_ICD_FILENAMES = process.env.VK_ICD_FILENAMES || '/usr/lib/chromium/vk_swiftshader_icd.json';

/** `node grader/cli.mjs ...args` in the tree at `root` → spawnSync's { status, stdout, stderr }. */
export function cliIn(root, ...args) {
  return spawnSync(process.execPath, [join(root, 'grader', 'cli.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, VK_ICD_FILENAMES, NO_COLOR: '1' } });
}

/** `node grader/cli.mjs ...args` in this tree. */
export const cli = (...args) => cliIn(ROOT, ...args);

/**
 * Resident memory of `pid` and all its descendants: ppid links from /proc/<pid>/stat, VmRSS from
 * /proc/<pid>/status. → { bytes, pids }
 */
export function treeRss(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try { stat = readFileSync(`/proc/${entry}/stat`, 'utf8'); } catch { continue; } // gone meanwhile
    const ppid = +stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]; // "(comm)" may hold spaces
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(+entry);
  }
  let bytes = 0;
  const pids = [];
  for (const queue = [pid]; queue.length;) {
    const p = queue.pop();
    pids.push(p);
    try { bytes += 1024 * +(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0); } catch { /* exited */ }
    queue.push(...(children.get(p) ?? []));
  }
  return { bytes, pids };
}
