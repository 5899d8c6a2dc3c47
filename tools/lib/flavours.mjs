// Which WebAssembly flavours a use of the core needs, and whether they are out of date: the rule is
// tools/build-wasm's own (CHECK=1 asks it without building), so a stale core is found the same way
// everywhere (tools/serve, tools/grade through tools/setup --grade, tools/check-pack).
//   cli   the CLI's one grade and grade-batch (loadCore({ threads: 1 }))
//   node  what Node loads: the CLI's and loadCore()'s default (the tests, the tools)
//   page  every flavour (the page picks one per browser: web/build.mjs copies all five)
// As a command: `node tools/lib/flavours.mjs cli|node|page` prints those file names, one line.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FLAVOURS, bestFlavour } from '../../wasm/index.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The flavour files (`attnlab-simd`, …) `use` needs: 'cli', 'node' or 'page'. */
export function flavoursFor(use) {
  const file = (f) => FLAVOURS[f].file;
  if (use === 'cli') return [file(bestFlavour({ threads: 1 }))];
  if (use === 'node') return [...new Set([file(bestFlavour()), file(bestFlavour({ threads: 1 }))])];
  if (use === 'page') return Object.values(FLAVOURS).map((f) => f.file);
  throw new Error(`flavoursFor: unknown use ${JSON.stringify(use)} (cli, node or page)`);
}

/** What is out of date in these flavours, as tools/build-wasm's CHECK=1 says it (one line each); [] when none. */
export function staleCore(flavours, { root = ROOT } = {}) {
  const r = spawnSync(join(root, 'tools', 'build-wasm'), flavours, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CHECK: '1', FLAVOURS: '' },
  });
  if (r.status === 0) return [];
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('build-wasm: stale: '));
  if (r.status === 3 && lines.length) return lines.map((l) => l.slice('build-wasm: stale: '.length));
  throw new Error(`tools/build-wasm (CHECK=1) failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().slice(-400)}`);
}

/** The command that brings these flavours up to date. */
export const buildCommand = (flavours) => `tools/build-wasm ${flavours.join(' ')}`;

/**
 * Makes sure these flavours are up to date: when one is not, `rebuild` runs tools/build-wasm on them
 * (its lines on stderr unless `quiet`), else an Error names what is stale and the command to run.
 * `who` prefixes the messages (`tools/serve`). → { rebuilt: boolean, stale: [line…] }
 */
export function ensureCore(flavours, { rebuild = true, quiet = false, who = 'attnlab', root = ROOT } = {}) {
  const stale = staleCore(flavours, { root });
  if (!stale.length) return { rebuilt: false, stale };
  const more = stale.length > 1 ? ` and ${stale.length - 1} more` : '';
  const why = `the WebAssembly core is out of date (${stale[0]}${more})`;
  if (!rebuild) throw new Error(`${why}; run: ${buildCommand(flavours)}`);
  if (!quiet) console.error(`${who}: ${why}; rebuilding: ${buildCommand(flavours)}`);
  const r = spawnSync(join(root, 'tools', 'build-wasm'), flavours, {
    cwd: root,
    encoding: 'utf8',
    stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CHECK: '', FLAVOURS: '' },
  });
  if (r.status !== 0)
    throw new Error(`${buildCommand(flavours)} failed (exit ${r.status})${quiet ? `:\n${r.stderr.slice(-2000)}` : ''}`);
  return { rebuilt: true, stale };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    console.log(flavoursFor(process.argv[2]).join(' '));
  } catch (e) {
    console.error(`tools/lib/flavours.mjs: ${e.message}`);
    process.exit(2);
  }
}
