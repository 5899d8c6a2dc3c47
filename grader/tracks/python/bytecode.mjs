// Build-time (Node) only: the guest's own Python (./numpy.py, ./runtime.py) compiled to MicroPython
// bytecode (.mpy) when the guest is bundled, so that a sandbox imports bytecode and never compiles
// those ~70 KB of source at start-up (that compile was the largest part of a Python child's start:
// tools/sandbox-cost --breakdown). The compiler is mpy-cross from npm (@pybricks/mpy-cross-v6, pinned:
// MicroPython's own compiler, built to WebAssembly); it writes .mpy version 6, which MicroPython loads
// from v1.19 on (bytecode-only files carry no sub-version: the interpreter's 1.27 accepts them).
// A compile error (a syntax error in numpy.py) fails the build with mpy-cross's message.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';

const PACKAGE = '@pybricks/mpy-cross-v6';
const require = createRequire(import.meta.url);

let queue = Promise.resolve();

/** Python source → Promise<Uint8Array> of its .mpy; `name` (the file's name) is what frames and errors carry. */
export function compilePython(name, source) {
  // one compile at a time: each instance of the glue holds process-wide handlers while it runs
  const done = queue.then(() => compileOne(name, source));
  queue = done.catch(() => {});
  return done;
}

function compileOne(name, source) {
  const MpyCross = require(`${PACKAGE}/build/mpy-cross-v6.js`);
  // The WebAssembly is handed in: the glue's own loader fetches, which Node refuses for a file path.
  const wasmBinary = readFileSync(require.resolve(`${PACKAGE}/build/mpy-cross-v6.wasm`));
  // Emscripten's Node glue adds process-wide handlers per instance; those this compile added are
  // removed when it ends (a dozen modules would otherwise pass Node's listener warning).
  /** @type {any[]} Node's typings name each process event in its own overload, none for a string */
  const events = ['uncaughtException', 'unhandledRejection'];
  const before = events.map((e) => new Set(process.listeners(e)));
  const tidy = () =>
    events.forEach((e, i) => process.listeners(e).forEach((l) => before[i].has(l) || process.removeListener(e, l)));
  return new Promise((resolve, reject) => {
    MpyCross({
      arguments: [name],
      inputFileContents: source,
      wasmBinary,
      print: () => {},
      printErr: () => {},
      callback: (status, mpy, out, err) => {
        tidy();
        if (status === 0 && mpy?.length > 4 && mpy[0] === 0x4d && mpy[1] === 6) resolve(mpy);
        else
          reject(
            new Error(
              `mpy-cross could not compile ${name} (exit ${status}): ${[...out, ...err].join('\n').slice(0, 2000)}`,
            ),
          );
      },
    });
  });
}

/** The esbuild plugin: a guest's `import X from './numpy.py'` gives X = the module's .mpy (a Uint8Array). */
export const bytecodePlugin = {
  name: 'attnlab-python-bytecode',
  setup(b) {
    b.onLoad({ filter: /[\\/]tracks[\\/]python[\\/](?:stdlib[\\/])?\w+\.py$/ }, async (a) => ({
      contents: await compilePython(basename(a.path), readFileSync(a.path, 'utf8')),
      loader: 'binary',
      watchFiles: [a.path],
    }));
  },
};
