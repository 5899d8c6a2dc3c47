// A track's guest (grader/tracks/<name>/guest-entry.mjs, with grader/wire and grader/np) bundled
// into one classic script, to be evaluated inside a fresh `vm` context; plus a copy of the WebAssembly
// its interpreter runs, if any (the Python track's MicroPython). Both kept in spawn.mjs's GUEST_DIR
// (grader/dist/guest/<track>.js and .wasm), rebuilt when a source is newer, each written whole under
// another name and renamed. A sandbox child reads them there itself (child.cjs): GUEST_DIR is the one
// folder of the repository it may read besides its own script (spawn.mjs), so the folder holds
// nothing else (not the reference's answers in grader/dist/refs).
import { mkdirSync, readFileSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalog, guestWasm } from '../../tracks/catalog.mjs';
import { GUEST_DIR } from './spawn.mjs';
import { writeAtomic } from './write-atomic.mjs';

const grader = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
    const p = join(dir, e.name);
    return Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }, 0);

/**
 * What the child checks of a file before it uses it: its size as the parent saw it. Several processes
 * that find a bundle stale at once (a test run's first grades) build and rename the same bytes, which
 * a child told of another's file must still take; a build from changed sources (edited during a run)
 * is refused, unless it happens to be just as long.
 */
const identity = (file) => ({ file, size: statSync(file).size });

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0; // not built yet
  }
};

/** Writes `bytes` to `file` whole (writeAtomic); a file that already holds them is only dated now. */
function replace(file, bytes) {
  try {
    if (readFileSync(file).equals(bytes)) return utimesSync(file, new Date(), new Date());
  } catch {
    /* none yet */
  }
  mkdirSync(dirname(file), { recursive: true });
  writeAtomic(file, bytes);
}

let building = 0;

/**
 * → { script, wasm } for `track` (a track, or its description: grader/tracks/catalog.mjs): the guest
 * bundle's file and, if the track has one, its WebAssembly's, each as { file, size }
 * (wasm: null without), built first when stale.
 */
export async function guestBundle(track = catalog.DEFAULT_TRACK) {
  const script = join(GUEST_DIR, `${track.name}.js`);
  const source = guestWasm(track);
  const wasm = source && join(GUEST_DIR, `${track.name}.wasm`);
  const sources = Math.max(
    ...['wire', 'np', 'core', 'tracks'].map((d) => newest(join(grader, d))),
    statSync(join(grader, 'limits.mjs')).mtimeMs,
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
  if (mtime(script) <= sources) {
    // Only when the bundle is stale: esbuild is slow to load, and the tracks' build-time plugins are not needed otherwise.
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
    replace(script, Buffer.from(outputFiles[0].contents));
  }
  if (wasm && mtime(wasm) <= statSync(source).mtimeMs) replace(wasm, readFileSync(source));
  return { script: identity(script), wasm: wasm ? identity(wasm) : null };
}
