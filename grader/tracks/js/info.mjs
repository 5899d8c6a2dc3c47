// The JavaScript track's description (grader/tracks/README.md): every field that is data, without the
// track's code, so that the tracks can be listed and a submission's track decided without loading any
// of them (grader/tracks/catalog.mjs); ./index.mjs is the whole track, this and its code. Its one
// import is data too: the track's own sentences (./messages.mjs), so that a report's causes render from
// the descriptions alone.
import messages from './messages.mjs';

export default Object.freeze({
  name: 'js',
  order: 0, // the first track: the default (a file of no known extension; storage keys without a suffix)
  label: 'JavaScript',
  short: 'JS', // where space is short (the Scale panel's legend)
  extensions: ['.js'],
  files: { starter: 'starter.js', solution: 'solution.js', submission: 'submission.js' },
  // The batch's similarity (grader/batch/similarity.mjs, one linear pass): comments [open, close] (close
  // "\n": to the end of the line), strings [open, close, multi-line], the characters of a name.
  lexicon: {
    comments: [
      ['//', '\n'],
      ['/*', '*/'],
    ],
    strings: [
      ['`', '`', true],
      ['"', '"', false],
      ["'", "'", false],
    ],
    name: { start: /[\p{L}_$]/u, part: /[\p{L}\p{N}_$]/u },
    keywords:
      'break case catch class const continue default delete do else export extends finally for function if import in instanceof let new of return switch this throw try typeof var void while yield async await null undefined true false'.split(
        ' ',
      ),
  },
  // A program a host loads into a realm before it is needed, so that the first real load does not pay
  // for compiling np and the guest (it declares no globals; data, so that a host started from the
  // description alone has it): the page's spare worker, a Node child while it waits for its first
  // request, a fork server before its first copy (grader/hosts/node/child.cjs). Small on purpose: the
  // page's next Check waits for its spare's warm-up (a version that also ran np on a hidden case's
  // (2, 48, 16) arrays measured 106–113 ms against 97 for this one, tools/measure-page, clicks 300 ms
  // apart, two alternating runs; this machine's spread between runs is about as large).
  warmUp: `(() => {
  const a = np.array([[2, 0], [0, 2], [1, 1]]), m = np.tril(np.ones([3, 3], { dtype: 'bool' }));
  let s = np.divide(np.matmul(a, np.swapaxes(a, -1, -2)), Math.sqrt(2));
  s = np.where(m, s, -Infinity);
  const e = np.exp(np.subtract(s, np.max(s, { axis: -1, keepdims: true })));
  print(np.round(np.divide(e, np.sum(e, { axis: -1, keepdims: true })), 3), m, a.T.tolist());
})();`,
  // The guest bundle's entry (relative to this folder) and what its realm must allow: strings are
  // evaluated (the student's script), nothing is compiled to WebAssembly.
  guest: { entry: 'guest-entry.mjs', wasm: null },
  realm: { strings: true, wasm: false, release: false },
  // The whole submission's budget, ms of CPU (grader/core/grade.mjs): two functions that never end
  // (1 + 2 s each to confirm) and the rest of the tests still fit; a file whose every function loops
  // has three confirmed, and 2 s to spare for the host's own work in between (a page on a busy
  // machine counts wall time) before a fourth could be.
  budgetMs: 11000,
  // The guest counts work (grader/tracks/work.mjs): a request's budget is its limit × this many units,
  // the same verdict on any machine; the hosts' clocks back it at LIMITS.workBackstop × the limit.
  // Calibrated by tools/work-budget on the reference machine (the CI kind, 2 cores), so that a budget in
  // units is about the limit in CPU time there for the slowest kind of work measured.
  workPerMs: 200000,
  // Messages: a pack's `key.js` is used before `key` on this track (none needs one yet).
  variant: 'js',
  // The track's own sentences ({ ru, en }: key → sentence), looked up after a pack's, before the core's.
  messages,
});
