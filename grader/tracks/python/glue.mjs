// Build-time (Node) only: MicroPython's Emscripten glue (micropython.mjs of
// @micropython/micropython-webassembly-pyscript, pinned in package.json) turned into a module that the
// guest bundles, exporting createMicroPython(privateGlobal) → loadMicroPython. The glue is an ES module
// written for a browser or Node; the sandbox realm is neither, so each edit below is checked to match
// exactly as often as expected (a new version of the package fails the build instead of the sandbox):
// - `import.meta.url` and the dynamic imports of its Node branch go (they never run: no `process`);
// - loadMicroPython() takes `instantiateWasm`, so the host hands in the module (no fetch, no file),
//   and its unbuffered stdout callback gets each byte as a number;
// - `globalThis` inside it is a private object (the guest's): what the glue stores there (Module, the
//   proxy tables) and what `import js` would expose is that object, never the realm's global.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const PACKAGE = '@micropython/micropython-webassembly-pyscript';
const require = createRequire(import.meta.url);
export const gluePath = () => require.resolve(`${PACKAGE}/micropython.mjs`);

const EDITS = [
  ['import.meta.url', '""', 4],
  ['export default _createMicroPythonModule;', '', 1],
  ['export async function loadMicroPython', 'async function loadMicroPython', 1],
  [/(?<![\w.$])import\("/g, 'noImport("', 4],
  // Unbuffered output byte by byte, without a Uint8Array per byte: stdout(byte).
  [':Module.stdout=c=>stdout(new Uint8Array([c]))', ':Module.stdout=stdout', 1],
  [
    'let Module={locateFile:(path,scriptDirectory)=>url||scriptDirectory+path};',
    'let Module={locateFile:(path,scriptDirectory)=>url||scriptDirectory+path,instantiateWasm:options.instantiateWasm};',
    1,
  ],
];
// Globals the glue sets through globalThis but reads by bare name: variables of the wrapper here,
// mirrored on the private global object.
const SHARED = ['proxy_js_ref', 'proxy_js_ref_next', 'proxy_js_ref_map', 'Module'];

export function patchGlue(text) {
  for (const [from, to, n] of EDITS) {
    const found = typeof from === 'string' ? text.split(from).length - 1 : (text.match(from) ?? []).length;
    if (found !== n)
      throw new Error(
        `${PACKAGE}: expected ${n} × ${String(from)} in micropython.mjs, found ${found}; the glue changed, see grader/tracks/python/glue.mjs`,
      );
    text = typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
  }
  return `export async function createMicroPython(globalThis) {
  var ${SHARED.join(', ')};
  Object.defineProperties(globalThis, { ${SHARED.map((n) => `${n}: { get: () => ${n}, set: (v) => { ${n} = v; } }`).join(', ')} });
  const { TextDecoder, console, crypto, WebAssembly } = globalThis;
  const noImport = async () => { throw new Error('no modules here'); };
${text}
  return globalThis.loadMicroPython;
}
`;
}

/** The esbuild plugin: `import { createMicroPython } from 'attnlab:micropython-glue'`. */
export const gluePlugin = {
  name: 'attnlab-micropython-glue',
  setup(b) {
    b.onResolve({ filter: /^attnlab:micropython-glue$/ }, () => ({ path: gluePath(), namespace: 'attnlab-glue' }));
    b.onLoad({ filter: /.*/, namespace: 'attnlab-glue' }, (a) => ({
      contents: patchGlue(readFileSync(a.path, 'utf8')),
      loader: 'js',
      watchFiles: [a.path],
    }));
  },
};
