// The Python track's sandbox worker in the page: grader/hosts/browser/worker-core.js with MicroPython
// and numpy (./guest.mjs). The page compiles micropython.wasm once and sends the module in the config;
// this worker's CSP (derived by web/csp.mjs from this track's `realm`) allows WebAssembly and nothing
// else: no network, no eval. Started only when the page's Python track is chosen.
import { startWorker } from '../../hosts/browser/worker-core.js';
import { installPythonGuest } from './guest.mjs';

startWorker(({ config, hide }) => installPythonGuest(self, { wasm: config.wasm, hide }));
