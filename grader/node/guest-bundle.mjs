// The guest (grader/sandbox + grader/np) bundled into one classic script, to be evaluated inside a
// fresh `vm` context. Cached in grader/dist/ and rebuilt when a source is newer than the cache.
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const grader = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(grader, 'dist', 'guest.js');

const newest = (dir) => readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
  const p = join(dir, e.name);
  return Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
}, 0);

export async function guestBundle() {
  let cached = 0;
  try { cached = statSync(cache).mtimeMs; } catch { /* not built yet */ }
  const sources = Math.max(newest(join(grader, 'sandbox')), newest(join(grader, 'np')), newest(join(grader, 'core')), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  if (cached > sources) return readFileSync(cache, 'utf8');
  const { buildSync } = await import('esbuild'); // only when the cache is stale: it is slow to load
  const { outputFiles } = buildSync({
    entryPoints: [join(grader, 'sandbox', 'guest-entry.mjs')],
    bundle: true, format: 'iife', platform: 'neutral', target: 'es2022', write: false, legalComments: 'none',
  });
  const text = outputFiles[0].text;
  mkdirSync(dirname(cache), { recursive: true });
  const tmp = `${cache}.${process.pid}.tmp`; // rename: a concurrent reader never sees half a file
  writeFileSync(tmp, text);
  renameSync(tmp, cache);
  return text;
}
