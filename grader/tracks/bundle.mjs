// Build-time (Node) only: what esbuild needs to bundle any track's guest, for the Node host
// (grader/hosts/node/guest-bundle.mjs) and the page's workers (web/build.mjs): the esbuild plugins of
// every track folder that has a build.mjs (`plugins`: the Python track's glue and bytecode), and the
// WebAssembly file a guest runs (that build.mjs's `wasmPath()`). A track without one needs neither.
import { trackFile, trackFolders } from './list.mjs';

const builds = Object.fromEntries(
  await Promise.all(
    trackFolders
      .map((name) => [name, trackFile(name, 'build.mjs')])
      .filter(([, url]) => url)
      .map(async ([name, url]) => [name, await import(url.href)]),
  ),
);

export const guestPlugins = Object.values(builds).flatMap((b) => b.plugins ?? []);

/** The WebAssembly file a track's guest runs (an absolute path), or null. */
export const guestWasm = (track) => (track.guest.wasm ? builds[track.name].wasmPath() : null);
