// The tracks (submission languages), the one table every room reads: the grader core (given a track
// by its caller), the CLI, the Node host's bundler, the page. Each track is a frozen object, the default
// export of grader/tracks/<name>/index.mjs (its fields: grader/tracks/README.md). Nothing here names a
// track: ./list.mjs finds them by listing the folder (the page: web/build.mjs generates that list).
import { tracks } from './list.mjs';

/** Tracks in their `order` (then by name): the page's switch, lists, the CLI's help. */
const ordered = [...tracks].sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || (a.name < b.name ? -1 : 1));

export const TRACKS = Object.freeze(Object.fromEntries(ordered.map((t) => [t.name, t])));
export const TRACK_NAMES = Object.freeze(Object.keys(TRACKS));
/** The first track in order: a file of no known extension, a report without a track, storage keys without a suffix. */
export const DEFAULT_TRACK = ordered[0];

/** The track called `name`, or null. */
export const trackNamed = (name) => (typeof name === 'string' && Object.hasOwn(TRACKS, name) ? TRACKS[name] : null);

/** The track a file belongs to by its extension (`.py` → python), or null for an unknown extension. */
export function trackOfFile(file) {
  const lower = String(file).toLowerCase();
  return Object.values(TRACKS).find((t) => t.extensions.some((e) => lower.endsWith(e))) ?? null;
}
