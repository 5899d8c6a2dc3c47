// Build-time (Node) only: what esbuild needs to bundle a track's guest, for the Node host
// (grader/hosts/node/guest-bundle.mjs, which imports this only when its cached bundle is stale) and the
// page's workers (web/build.mjs): the esbuild plugins of every track folder that has a build.mjs
// (`plugins`: the Python track's glue and bytecode; a track without one needs none), and the
// WebAssembly file a guest runs (./catalog.mjs `guestWasm`, from the track's `guest.wasm`).
import { trackFile, trackFolders } from './catalog.mjs';

export { guestWasm } from './catalog.mjs';

const builds = await Promise.all(
  trackFolders
    .map((name) => trackFile(name, 'build.mjs'))
    .filter(Boolean)
    .map((url) => import(url.href)),
);

export const guestPlugins = builds.flatMap((b) => b.plugins ?? []);
