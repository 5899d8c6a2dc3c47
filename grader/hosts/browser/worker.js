// The page's sandbox worker, the same shell for every track: ./worker-core.js (network and timer APIs
// removed, the memory budget, the message loop) started with the track's guest. `attnlab:worker-guest`
// is no file: web/build.mjs resolves it, once per track, to that track's folder's worker.js
// (grader/tracks/<name>/worker.js, its default export `install({ config, hide })` → the guest's handle;
// ./workers.mjs workerGuest), and builds this shell to sandbox-worker-<name>.js. So the host imports the
// track (at build time), never a track the host.
import { startWorker } from './worker-core.js';
import install from 'attnlab:worker-guest';

startWorker(install);
