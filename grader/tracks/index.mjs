// The tracks (submission languages), the one table every room reads that needs whole tracks: the grader
// core (given a track by its caller), the batch, the page. Each track is a frozen object, the default
// export of grader/tracks/<name>/index.mjs (its fields: grader/tracks/README.md). Nothing here names a
// track: ./list.mjs finds them by listing the folder (the page: web/build.mjs generates that list).
// A single grade in Node needs only its own track: ./catalog.mjs (the tracks' descriptions, loadTrack).
import { tracks } from './list.mjs';
import { trackTable } from './table.mjs';

export const { TRACKS, TRACK_NAMES, DEFAULT_TRACK, trackNamed, trackOfFile, trackFor } = trackTable(tracks);
