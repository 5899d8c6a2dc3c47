// The table of the tracks, built from a list of them (whole tracks, ./index.mjs, or their descriptions,
// ./catalog.mjs), and the one rule that decides a submission's track. Pure: the page and Node alike.

/**
 * → { TRACKS: { <name>: track } in each track's `order` (then by name), TRACK_NAMES, DEFAULT_TRACK (the
 * first in order), trackNamed(name), trackOfFile(file), trackFor({ track, file }) }, all frozen.
 */
export function trackTable(list) {
  const ordered = [...list].sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || (a.name < b.name ? -1 : 1));
  const TRACKS = Object.freeze(Object.fromEntries(ordered.map((t) => [t.name, t])));
  /** The track called `name`, or null. */
  const trackNamed = (name) => (typeof name === 'string' && Object.hasOwn(TRACKS, name) ? TRACKS[name] : null);
  /** The track a file belongs to by its extension (`.py` → python), or null for an unknown extension. */
  const trackOfFile = (file) => {
    const lower = String(file).toLowerCase();
    return ordered.find((t) => t.extensions.some((e) => lower.endsWith(e))) ?? null;
  };
  /**
   * A submission's track, decided here and nowhere else (the CLI's entry guessing early and its commands):
   * the track named (`--track`; null when none has that name), else the file's extension, else the default.
   */
  const trackFor = ({ track, file }) =>
    track !== undefined && track !== null ? trackNamed(track) : (trackOfFile(file ?? '') ?? ordered[0]);
  return Object.freeze({
    TRACKS,
    TRACK_NAMES: Object.freeze(Object.keys(TRACKS)),
    DEFAULT_TRACK: ordered[0],
    trackNamed,
    trackOfFile,
    trackFor,
  });
}
