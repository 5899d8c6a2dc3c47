// The Python track's guest in the page's sandbox worker: MicroPython and numpy (./guest.mjs) installed
// on the worker's global. The worker itself is the browser host's (grader/hosts/browser/worker.js, which
// web/build.mjs builds with this module as its guest). The page compiles micropython.wasm once and sends
// the module in the config; this worker's CSP (derived by web/csp.mjs from this track's `realm`) allows
// WebAssembly and nothing else: no network, no eval. Started only when the page's Python track is chosen.
import { installPythonGuest } from './guest.mjs';

/**
 * install({ config, hide, letGo }) → the guest's handle, run by the worker once the page's config arrived;
 * letGo(array): the worker's memory count forgets an array the bridge freed during a call.
 */
export default ({ config, hide, letGo }) => installPythonGuest(self, { wasm: config.wasm, hide, letGo });
