// Node only: the tracks found by listing this folder (as exercises/ lists the packs), each by its
// description alone (its info.mjs: name, order, extensions, files, variant, guest, realm…, no code;
// a folder without one is described by its index.mjs), and each whole track (its index.mjs: source
// preparation, explanations) imported only when asked, by loadTrack. So a grade loads its own track and
// no other: the CLI decides the track on the descriptions (trackFor), the pack loader reads every
// track's files by them, the Node host starts a sandbox from one. ./list.mjs loads them all.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { trackTable } from './table.mjs';

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

const named = async (name, file) => {
  const track = (await import(trackFile(name, file).href)).default;
  if (track?.name !== name) throw new Error(`grader/tracks/${name}/${file}: its track's name must be "${name}"`);
  return track;
};

/** The tracks' descriptions as a table (./table.mjs): TRACKS, TRACK_NAMES, DEFAULT_TRACK, trackFor… */
export const catalog = trackTable(
  await Promise.all(trackFolders.map((name) => named(name, trackFile(name, 'info.mjs') ? 'info.mjs' : 'index.mjs'))),
);

const whole = new Map();
/** The whole track (its index.mjs) of a name or a description, imported once. */
export function loadTrack(track) {
  const name = typeof track === 'string' ? track : track.name;
  if (!whole.has(name)) whole.set(name, named(name, 'index.mjs'));
  return whole.get(name);
}

const require = createRequire(import.meta.url);
/** The WebAssembly file a track's guest runs (`guest.wasm`: its file in its npm package), an absolute path, or null. */
export const guestWasm = (track) =>
  track.guest.wasm ? require.resolve(`${track.guest.wasm.package}/${track.guest.wasm.file}`) : null;
