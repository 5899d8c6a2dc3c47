// The Python track's sandbox worker: worker-core.js with MicroPython and numpy
// (grader/tracks/python/guest.mjs). The page compiles micropython.wasm once and sends the module in
// the config; this worker's CSP (WORKER_CSPS.python, web/csp.mjs) allows WebAssembly and nothing else:
// no network, no eval. Started only when the page's Python track is chosen.
import { startWorker } from './worker-core.js';
import { installPythonGuest } from '../../tracks/python/guest.mjs';

startWorker(({ config, hide }) => installPythonGuest(self, { wasm: config.wasm, hide }));
