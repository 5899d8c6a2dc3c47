// The tracks (submission languages), the one table every room reads: the grader core, the CLI, the
// Node host's bundler, the page. Each track is a frozen object (grader/tracks/README.md):
//   { name, label, short, extensions, files: { starter, solution, submission }, prepareSource(source),
//     guest: { entry, wasm }, realm: { strings, wasm, reusable }, variant, warmUp, scaleProbe(fn, name) }
import js from './js/index.mjs';
import python from './python/index.mjs';

export const TRACKS = Object.freeze({ js, python });
export const TRACK_NAMES = Object.freeze(Object.keys(TRACKS));
export const DEFAULT_TRACK = js;

/** The track called `name`, or null. */
export const trackNamed = (name) => (typeof name === 'string' && Object.hasOwn(TRACKS, name) ? TRACKS[name] : null);

/** The track a file belongs to by its extension (`.py` → python), or null for an unknown extension. */
export function trackOfFile(file) {
  const lower = String(file).toLowerCase();
  return Object.values(TRACKS).find((t) => t.extensions.some((e) => lower.endsWith(e))) ?? null;
}
