// The JavaScript track's guest in the page's sandbox worker: the JS guest (./guest.mjs: np, print,
// console, lockdown) installed on the worker's global. The worker itself is the browser host's
// (grader/hosts/browser/worker.js, which web/build.mjs builds with this module as its guest); it is
// served with the CSP web/csp.mjs derives from this track's `realm` (strings: eval only).
import { installGuest } from './guest.mjs';

/** install({ config, hide }) → the guest's handle, run by the worker once the page's config arrived. */
export default ({ hide }) => installGuest(self, { hide });
