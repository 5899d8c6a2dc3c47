// The JavaScript track's sandbox worker: worker-core.js with the JS guest (grader/tracks/js/guest.mjs:
// np, print, console, lockdown). Served with WORKER_CSPS.js (web/csp.mjs): eval only.
import { startWorker } from './worker-core.js';
import { installGuest } from '../../tracks/js/guest.mjs';

startWorker(({ hide }) => installGuest(self, { hide }));
