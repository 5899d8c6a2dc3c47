// The JavaScript track's sandbox worker in the page: grader/hosts/browser/worker-core.js with the JS
// guest (./guest.mjs: np, print, console, lockdown). Served with the CSP web/csp.mjs derives from this
// track's `realm` (strings: eval only).
import { startWorker } from '../../hosts/browser/worker-core.js';
import { installGuest } from './guest.mjs';

startWorker(({ hide }) => installGuest(self, { hide }));
