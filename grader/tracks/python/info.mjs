// The Python track's description (grader/tracks/README.md): every field that is data, without the
// track's code, so that the tracks can be listed and a submission's track decided without loading any
// of them (grader/tracks/catalog.mjs); ./index.mjs is the whole track, this and its code. Its one
// import is data too: the track's own sentences (./messages.mjs), so that a report's causes render from
// the descriptions alone.
import messages from './messages.mjs';

export default Object.freeze({
  name: 'python',
  order: 1,
  label: 'Python',
  short: 'Python', // where space is short (the Scale panel's legend)
  extensions: ['.py'],
  files: { starter: 'starter.py', solution: 'solution.py', submission: 'submission.py' },
  // The batch's similarity (grader/batch/similarity.mjs, one linear pass): comments [open, close] (close
  // "\n": to the end of the line), strings [open, close, multi-line], the characters of a name.
  lexicon: {
    comments: [['#', '\n']],
    strings: [
      ['"""', '"""', true],
      ["'''", "'''", true],
      ['"', '"', false],
      ["'", "'", false],
    ],
    name: { start: /[\p{L}_]/u, part: /[\p{L}\p{N}_]/u },
    keywords:
      'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield None True False self range len'.split(
        ' ',
      ),
  },
  // The warm-up program, as for JavaScript (../js/info.mjs).
  warmUp: `import numpy as np
a = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
m = np.tril(np.ones((3, 3), dtype=bool))
s = np.where(m, a @ a.swapaxes(-1, -2) / np.sqrt(2), -np.inf)
e = np.exp(s - s.max(axis=-1, keepdims=True))
print(np.round(e / e.sum(axis=-1, keepdims=True), 3), m, a.T.tolist(), a[1:, ::-1], repr(a))
del a, m, s, e
`,
  // The guest bundle's entry (relative to this folder) and the WebAssembly module it runs, which the
  // host reads (Node: from node_modules; page: web/dist/micropython.wasm) and hands in.
  guest: {
    entry: 'guest-entry.mjs',
    wasm: { file: 'micropython.wasm', package: '@micropython/micropython-webassembly-pyscript' },
  },
  // The realm compiles WebAssembly and evaluates no strings.
  realm: { strings: false, wasm: true, release: true },
  // A pack's time limits (spec.json timeout_ms, the overall deadline) are for JavaScript; here they
  // are multiplied by this. Every crossing between Python and the array engine costs ~30-50 µs of
  // interpreted wrapper code and FFI, so a correct loop over pairs of tokens takes ~1.9 s of CPU on
  // the first lesson's hidden (2, 48, 16) batch (tools/cpu-budget).
  timeScale: 4,
  // The whole submission's budget, ms of CPU (grader/core/grade.mjs): one function that never ends
  // (4 + 8 s to confirm) and the rest of the tests still fit, and a file whose every function loops is
  // graded within Exercism's 20 s (a second loop finds the budget spent).
  budgetMs: 14000,
  // The guest counts work (grader/tracks/work.mjs): a request's budget is its limit (already × timeScale)
  // × this many units, the same verdict on any machine; the hosts' clocks back it at
  // LIMITS.workBackstop × the limit. Calibrated by `tools/work-budget --track python`.
  workPerMs: 200000,
  // Messages: a pack's `key.py` is used before `key` on this track (Python spellings).
  variant: 'py',
  // The track's own sentences ({ ru, en }: key → sentence), looked up after a pack's, before the core's.
  messages,
});
