// The Python track (grader/tracks/README.md): submissions are Python modules that `import numpy as
// np`, run by MicroPython's WebAssembly port inside the sandbox realm (./guest.mjs), with a numpy
// module (./numpy.py) over the same np engine as the JavaScript track (grader/np). Syntax errors come
// from the guest's compiler at load (with their line); the trusted side reads only the structure
// (./source.mjs).
import { prepareSource } from './source.mjs';

export default Object.freeze({
  name: 'python',
  label: 'Python',
  extensions: ['.py'],
  files: { starter: 'starter.py', solution: 'solution.py', submission: 'submission.py' },
  prepareSource,
  // The guest bundle's entry (relative to this folder) and the WebAssembly module it runs, which the
  // host reads (Node: from node_modules; page: web/dist/micropython.wasm) and hands in.
  guest: { entry: 'guest-entry.mjs', wasm: { file: 'micropython.wasm', package: '@micropython/micropython-webassembly-pyscript' } },
  // The realm compiles WebAssembly and evaluates no strings; a request that V8 interrupted may have
  // stopped inside the interpreter, so that realm is not used again (the host starts a new one).
  realm: { strings: false, wasm: true, reusable: false },
  // Messages: a pack's `key.py` is used before `key` on this track (Python spellings).
  variant: 'py',
});
