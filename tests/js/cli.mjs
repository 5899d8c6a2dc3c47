// The grader's CLI as the tests run it (and, from tools/lib/proc.mjs, treeRss, the memory of a CLI's
// process tree, for the attack tests): a child `node grader/cli.mjs …` of this tree (cli) or of a copy
// of it (cliIn), in that tree's root, its output as text without colours; --backend webgpu finds
// SwiftShader's Vulkan driver (VK_ICD_FILENAMES, as tools/test sets it).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VK_ICD_FILENAMES = process.env.VK_ICD_FILENAMES || '/usr/lib/chromium/vk_swiftshader_icd.json';

/**
 * `node grader/cli.mjs ...args` in the tree at `root` → spawnSync's { status, stdout, stderr }; `env`:
 * variables added; `timeout`: ms after which it is killed (a guard against a hang, never a judge of speed).
 */
function run({ root = ROOT, env = {}, timeout } = {}, args) {
  return spawnSync(process.execPath, [join(root, 'grader', 'cli.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, VK_ICD_FILENAMES, NO_COLOR: '1', ...env },
    timeout,
  });
}
export const cliIn = (root, ...args) => run({ root }, args);

/** `node grader/cli.mjs ...args` in this tree. */
export const cli = (...args) => run({}, args);

/** The same with options: { env, timeout } (ATTNLAB_ISOLATION=off; a guard against a hang). */
export const cliWith = (options, ...args) => run(options, args);

export { treeRss } from '../../tools/lib/proc.mjs';
