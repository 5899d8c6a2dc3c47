// The Python track (grader/tracks/README.md): submissions are Python modules that `import numpy as
// np`, run by MicroPython's WebAssembly port inside the sandbox realm (./guest.mjs), with a numpy
// module (./numpy.py) over the same np engine as the JavaScript track (grader/np). Syntax errors come
// from the guest's compiler at load (with their line); the trusted side reads only the structure
// (./source.mjs).
import { prepareSource, tokens } from './source.mjs';
import { rewriteSyntax, tickLoops, tickNameUsed } from './rewrite.mjs';
import info from './info.mjs';

// The whole track: its description (./info.mjs) and its code.
export default Object.freeze({
  ...info,
  // CPython's syntax that MicroPython lacks is rewritten first (./rewrite.mjs), lines kept; `run` (what
  // the hosts load) and `declarations` have the student's loops ticked for the work count (tickLoops),
  // whose names a submission may not use (refused with their position, as the JavaScript track does).
  prepareSource: (source) => {
    const used = tickNameUsed(source);
    if (used) {
      const before = source.slice(0, used.start);
      const line = before.split('\n').length;
      return {
        ok: false,
        error: {
          message: `${used.value} is a name the grader uses: rename it`,
          line,
          column: used.start - before.lastIndexOf('\n'),
        },
      };
    }
    const prepared = prepareSource(rewriteSyntax(source).source);
    return { ...prepared, run: tickLoops(prepared.source), declarations: tickLoops(prepared.declarations) };
  },
  tokens, // for the grader's reading of a syntax error (core/syntax.mjs)
  // Errors explained (grader/core/explain.mjs): a lost axis is put back with this spelling, and
  // MicroPython's compiler refuses `*x` inside a tuple or list display, where NumPy users write it.
  explain: {
    keepdims: 'keepdims=True',
    syntax: ({ message }) => (/\*x must be assignment target/.test(String(message)) ? 'syntax.star_display' : null),
    // MicroPython's compiler messages students meet most → its sentences (./messages.mjs), read by
    // grader/core/syntax.mjs
    parser: [
      [/^'return' outside function$/, 'parser.return_outside'],
      [/^invalid syntax$/, 'parser.invalid_syntax'],
      [/^IndentationError: unexpected indent$/, 'parser.unexpected_indent'],
      [
        /^IndentationError: unindent doesn't match any outer indent level$|^IndentationError: unindent/,
        'parser.unindent',
      ],
      [/^IndentationError: expected an indented block/, 'parser.expected_indent'],
    ],
  },
  // The Scale panel's probe, as for JavaScript (grader/tracks/js/index.mjs; `time.perf_counter` is the
  // runtime's clock; the probe is appended after the student's module).
  scaleProbe: (fn, name) => `

def ${name}(Q, K, V, min_ms):
    import numpy
    import time
    T = Q.shape[0]
    mask = numpy.tril(numpy.ones((T, T), dtype=bool))

    def once():
        r = ${fn}(Q, K, V, mask)
        return isinstance(r, (tuple, list)) and len(r) == 2
    t0 = time.perf_counter()
    if not once():
        return None
    first = (time.perf_counter() - t0) * 1000
    if first >= min_ms:
        return [first, 1]
    n = min(1000, int(min_ms / max(first, 0.05)) + 1)
    best = float('inf')
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n):
            once()
        best = min(best, (time.perf_counter() - t0) * 1000 / n)
    return [best, 3 * n]
`,
});
