// The JavaScript track (grader/tracks/README.md): submissions are scripts with a global `np`
// (grader/np), prepared on the trusted side with acorn (./source.mjs) and run by ./guest.mjs.
import { prepareSource } from './source.mjs';

export default Object.freeze({
  name: 'js',
  label: 'JavaScript',
  extensions: ['.js'],
  files: { starter: 'starter.js', solution: 'solution.js', submission: 'submission.js' },
  prepareSource,
  // The guest bundle's entry (relative to this folder) and what its realm must allow: strings are
  // evaluated (the student's script), nothing is compiled to WebAssembly, and a realm whose request
  // was interrupted can take the next request.
  guest: { entry: 'guest-entry.mjs', wasm: null },
  realm: { strings: true, wasm: false, reusable: true },
  // Messages: a pack's `key.js` is used before `key` on this track (none needs one yet).
  variant: 'js',
});
