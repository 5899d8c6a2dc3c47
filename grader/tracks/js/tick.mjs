// The global the JavaScript track's prepared source calls at each loop iteration and function entry
// (./source.mjs, trusted side), which its guest defines read-only (./guest.mjs): the work count's tick
// (grader/tracks/work.mjs), and the track's units per ms of a request's limit (from ./info.mjs, data only),
// so that acorn's side, the track object and the guest bundle share only these.
import info from './info.mjs';

export const TICK = '__attnlab_tick';
/** The same for a function's entry (grader/tracks/work.mjs ENTRY_UNITS). */
export const ENTER = '__attnlab_enter';
/**
 * The constants the prepared source binds them to, first thing (after the script's directives), and
 * calls: a global is looked up through the vm context's interceptor in Node (some 70 ns a call,
 * measured), a constant of the evaluated script's own scope, which its functions close over, is not.
 */
export const TICK_LOCAL = '__attnlab_t';
export const ENTER_LOCAL = '__attnlab_e';

/** Work units per ms of a request's limit (./info.mjs `workPerMs`): a request's budget is its limit × this. */
export const WORK_PER_MS = info.workPerMs;
