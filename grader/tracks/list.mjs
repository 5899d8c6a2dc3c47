// Node only: the tracks found by listing this folder, as exercises/ lists the packs. Every folder
// grader/tracks/<name>/ with an index.mjs is a track (its default export, grader/tracks/README.md).
// The page cannot list folders: web/build.mjs generates this module's twin at build time (the same
// `tracks`, imported statically), so adding a folder needs no edit anywhere else either.
import { existsSync, readdirSync } from 'node:fs';

const here = new URL('./', import.meta.url);

/** The names of the folders here that hold a track (an index.mjs), sorted by name. */
export const trackFolders = readdirSync(here, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(new URL(`${e.name}/index.mjs`, here)))
  .map((e) => e.name)
  .sort();

/** The URL of a file in a track's folder, or null when that folder has no such file. */
export function trackFile(name, file) {
  const url = new URL(`${name}/${file}`, here);
  return existsSync(url) ? url : null;
}

export const tracks = await Promise.all(
  trackFolders.map(async (name) => {
    const track = (await import(new URL(`${name}/index.mjs`, here).href)).default;
    if (track?.name !== name) throw new Error(`grader/tracks/${name}/index.mjs: its track's name must be "${name}"`);
    return track;
  }),
);
