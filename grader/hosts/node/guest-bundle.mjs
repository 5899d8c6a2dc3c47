// A track's guest (grader/tracks/<name>/guest-entry.mjs, with grader/wire and grader/np) bundled
// into one classic script, to be evaluated inside a fresh `vm` context; plus the WebAssembly bytes
// its interpreter runs, if any (the Python track's MicroPython). Cached in grader/dist/ per track and
// rebuilt when a source is newer than the cache.
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalog, guestWasm } from '../../tracks/catalog.mjs';

const grader = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
    const p = join(dir, e.name);
    return Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }, 0);

const wasmCache = new Map();
let building = 0;

/** → { script: Buffer (the bundle's UTF-8 bytes), wasm: Buffer | null } for `track` (a track, or its description: grader/tracks/catalog.mjs). */
export async function guestBundle(track = catalog.DEFAULT_TRACK) {
  const cache = join(grader, 'dist', `guest-${track.name}.js`);
  const wasmFile = guestWasm(track);
  let cached = 0;
  try {
    cached = statSync(cache).mtimeMs;
  } catch {
    /* not built yet */
  }
  const sources = Math.max(
    ...['wire', 'np', 'core', 'tracks'].map((d) => newest(join(grader, d))),
    statSync(join(grader, 'limits.mjs')).mtimeMs,
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
    wasmFile ? statSync(wasmFile).mtimeMs : 0,
  );
  let script;
  if (cached > sources)
    script = readFileSync(cache); // bytes, as the child is sent them: a 0.4 MB string decoded and encoded again cost ~4.5 ms
  else {
    // Only when the cache is stale: esbuild is slow to load, and the tracks' build-time plugins are not needed otherwise.
    const [esbuild, { guestPlugins }] = await Promise.all([import('esbuild'), import('../../tracks/bundle.mjs')]);
    building++;
    let outputFiles;
    try {
      ({ outputFiles } = await esbuild.build({
        entryPoints: [join(grader, 'tracks', track.name, track.guest.entry)],
        bundle: true,
        format: 'iife',
        platform: 'neutral',
        target: 'es2022',
        write: false,
        legalComments: 'none',
        plugins: guestPlugins,
      }));
    } finally {
      // The build API (plugins need it) keeps a service process: end it, or a CLI run leaves it behind.
      if (--building === 0) await esbuild.stop();
    }
    script = Buffer.from(outputFiles[0].contents);
    mkdirSync(dirname(cache), { recursive: true });
    const tmp = `${cache}.${process.pid}.tmp`; // rename: a concurrent reader never sees half a file
    writeFileSync(tmp, script);
    renameSync(tmp, cache);
  }
  if (wasmFile && !wasmCache.has(wasmFile)) wasmCache.set(wasmFile, readFileSync(wasmFile));
  return { script, wasm: wasmFile ? wasmCache.get(wasmFile) : null };
}
