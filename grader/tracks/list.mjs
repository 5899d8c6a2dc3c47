// Node only: every whole track (grader/tracks/<name>/index.mjs), for ./index.mjs's table. The page cannot
// list folders: web/build.mjs generates this module's twin at build time (the same `tracks`, imported
// statically), so adding a folder needs no edit anywhere else either.
import { trackFolders, loadTrack } from './catalog.mjs';

export const tracks = await Promise.all(trackFolders.map(loadTrack));
