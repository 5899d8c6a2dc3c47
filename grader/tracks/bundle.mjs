// Build-time (Node) only: what esbuild needs to bundle any track's guest, for the Node host
// (grader/hosts/node/guest-bundle.mjs) and the page's workers (web/build.mjs): the Python track's glue
// plugin and its .py files as MicroPython bytecode (Uint8Array). Harmless for the JavaScript track.
import { gluePlugin, wasmPath } from './python/glue.mjs';
import { bytecodePlugin } from './python/bytecode.mjs';

export const guestPlugins = [gluePlugin, bytecodePlugin];

/** The WebAssembly file a track's guest runs (an absolute path), or null. */
export const guestWasm = (track) => (track.guest.wasm ? wasmPath() : null);
