// The Python track's guest: MicroPython (its WebAssembly port, from npm) inside the sandbox realm (a
// `vm` context in the Node host's child process, or the page's Python Web Worker), with the numpy
// module (./numpy.py) over the np engine through the bridge (./bridge.mjs), and the runtime
// (./runtime.py) that loads and calls the submission. Same requests and answers as the JavaScript
// guest (grader/tracks/js/guest.mjs), through the shared loop of grader/tracks/guest-kit.mjs:
//   { op: 'load', source, functions } → { ok: true, functions, error: null | { message, line, column, syntax? }, output }
//   { op: 'call', name, args }        → { ok: true, value, output } | { ok: false, kind, message, line, output }
// A function that returns None answers { $undef } ("not implemented"); MemoryError is kind 'memory'.
//
// The interpreter's JavaScript glue runs against a private global object (see ./glue.mjs), so even
// `import js` (which the runtime refuses) would find that object, not the realm's global.
import { createMicroPython } from 'attnlab:micropython-glue';
import np, { NDArray } from '../../np/index.mjs';
import { InvalidValue, encodeValue } from '../../wire/codec.mjs';
import { LIMITS } from '../../limits.mjs';
import { createOutput, createHandle, capMessage, removeEverywhere } from '../guest-kit.mjs';
import { measureCall } from '../measure.mjs';
import { createBridge, hexOf } from './bridge.mjs';
import { createWork, countNp } from '../work.mjs';
import info from './info.mjs';
// Both as MicroPython bytecode (.mpy, a Uint8Array), compiled when the guest is bundled (./bytecode.mjs).
import NUMPY from './numpy.py';
import RUNTIME from './runtime.py';
import { STDLIB } from './stdlib/index.mjs';

const HEAP_BYTES = 32 * 2 ** 20; // the interpreter's own heap (Python objects); arrays live in the engine
const PYSTACK_WORDS = 64 * 1024;
const OUTPUT_BYTES = LIMITS.output * 4;

/** UTF-8 → string, malformed sequences as U+FFFD (what TextDecoder does; the vm realm has none). */
export function decodeUtf8(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    let cp = need === 0 ? b : need === 1 ? b & 0x1f : need === 2 ? b & 0x0f : b & 0x07,
      ok = need >= 0;
    for (let k = 1; ok && k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    if (
      ok &&
      ((need === 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (need === 3 && (cp < 0x10000 || cp > 0x10ffff)))
    )
      ok = false;
    if (!ok) {
      s += '\uFFFD';
      i++;
      continue;
    }
    s += String.fromCodePoint(cp);
    i += need + 1;
  }
  return s;
}

class Utf8Decoder {
  decode(bytes) {
    return decodeUtf8(bytes ?? []);
  }
}

/**
 * Starts the interpreter in `global`'s realm and → Promise<handle(requestJson) → responseJson>.
 * wasm: the interpreter's WebAssembly.Module or its bytes (a Uint8Array of this realm); hide: global
 * names to remove from the realm once it is running (WebAssembly is always among them).
 * @param {any} global
 * @param {{ wasm: any, hide?: string[], mark?: (step: string) => void, letGo?: (data: unknown) => void }} options
 */
export async function installPythonGuest(global, { wasm, hide = [], mark = () => {}, letGo = null }) {
  const output = createOutput();
  let bytes = [],
    cut = false;
  const flushOutput = () => {
    if (bytes.length) output.write(decodeUtf8(bytes) + (cut ? '\n…' : ''));
    bytes = [];
    cut = false;
  };
  const stdout = (byte) => {
    if (bytes.length < OUTPUT_BYTES) bytes.push(byte & 0xff);
    else cut = true;
  }; // the glue passes signed bytes
  // Deterministic "random" bytes for the interpreter (it seeds its own hash and random module with them).
  let seed = 0x2545f491;
  const getRandomValues = (a) => {
    for (let i = 0; i < a.length; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      a[i] = seed >>> 0;
    }
    return a;
  };
  const shadow = Object.create(null);
  Object.assign(shadow, {
    WorkerGlobalScope: true, // the glue's environment check: a worker, so it never looks for Node
    WebAssembly: global.WebAssembly,
    Int32Array,
    Float64Array,
    TextDecoder: global.TextDecoder ?? Utf8Decoder,
    console: Object.freeze({ log() {}, warn() {}, error() {}, info() {}, debug() {} }),
    crypto: Object.freeze({ getRandomValues }),
  });
  const WA = global.WebAssembly;
  const module = wasm instanceof WA.Module ? wasm : new WA.Module(wasm);
  mark('wasm compiled');
  const loadMicroPython = await createMicroPython(shadow);
  let instance = null;
  const mp = await loadMicroPython({
    heapsize: HEAP_BYTES,
    pystack: PYSTACK_WORDS,
    linebuffer: false,
    stdout,
    stderr: () => {},
    instantiateWasm: (imports, done) => {
      instance = new WA.Instance(module, imports);
      done(instance, module);
      return {};
    },
  });
  mark('interpreter started');
  // The work count (grader/tracks/work.mjs): the engine's calls charge it (wrapped once, before any
  // use), the bridge's fast element reads and the ticks of the student's loops (runtime.py) too. The
  // bridge also reads the interpreter's memory during a call to free the arrays Python no longer reaches
  // (./heapscan.mjs); the instance stays in this closure.
  const work = createWork();
  countNp(np, NDArray, work);
  const exports = instance.exports;
  const bridge = createBridge({
    wasm: {
      memory: () => exports.memory,
      stack: () => [exports.emscripten_stack_get_current(), exports.emscripten_stack_get_base()],
      pystackBytes: PYSTACK_WORDS * 4,
    },
    work,
    letGo,
  });
  try {
    mp.FS.mkdir('/lib');
  } catch {
    /* there already */
  }
  mp.FS.writeFile('/lib/numpy.mpy', NUMPY);
  mp.FS.writeFile('/lib/_attnlab.mpy', RUNTIME);
  // The standard library stays in the file system: the import guard imports a module when asked for it.
  for (const [name, mpy] of Object.entries(STDLIB)) mp.FS.writeFile(`/lib/_std_${name}.mpy`, mpy);
  const runtime = mp.pyimport('_attnlab');
  mark('runtime.py imported');
  const serve = runtime.install(
    bridge.bridge,
    [LIMITS.depth, LIMITS.elements, LIMITS.string],
    Object.keys(STDLIB).join(' '),
  );
  mark('numpy.py imported, runtime installed');
  const load = (source, wanted) => serve('load', source, wanted);
  const call = (name, metered) => serve('call', name, metered ? 'measure' : null); // metered: kept.heap sampled
  const release = () => serve('release', null, null);
  mp.FS.unlink('/lib/numpy.mpy');
  mp.FS.unlink('/lib/_attnlab.mpy');
  for (const name of ['WebAssembly', ...hide]) removeEverywhere(global, name);

  const lineColumn = (source, line) => {
    const text = source.split('\n')[line - 1];
    if (text === undefined) return null;
    return text.length - text.trimStart().length + 1;
  };
  const failure = (answer) => {
    const [kind, message, line] = answer;
    return {
      ok: false,
      kind: kind === 'memory' ? 'memory' : 'error',
      message: capMessage(String(message)),
      line: line > 0 ? line : null,
      column: null,
    };
  };
  // JS value of a test's argument → tokens for the runtime's next_arg.
  const tokensOf = (v, out) => {
    if (v instanceof np.ndarray) out.push('a', bridge.put(v));
    else if (typeof v === 'number') {
      if (Number.isInteger(v) && Math.abs(v) < 2 ** 31) out.push('i', v);
      else out.push('f', hexOf(v));
    } else if (typeof v === 'boolean') out.push('b', v);
    else if (typeof v === 'string') out.push('s', v);
    else if (Array.isArray(v)) {
      out.push('[', v.length);
      for (const x of v) tokensOf(x, out);
    } else out.push('N');
    return out;
  };
  // The runtime's tokens of a returned value → JS values for encodeValue (arrays already resolved).
  const valueOf = (tokens) => {
    let k = 0;
    const next = () => {
      const tag = tokens[k++];
      switch (tag) {
        case 'N':
          return undefined;
        case 'a':
        case 'b':
        case 'f':
        case 'i':
        case 's':
          return tokens[k++];
        case '[': {
          const n = tokens[k++],
            list = [];
          for (let i = 0; i < n; i++) list.push(next());
          return list;
        }
        case 'o': {
          const kind = tokens[k++];
          return kind === 'function' ? () => {} : Object.create(null);
        }
        default:
          throw new TypeError('internal: bad result token');
      }
    };
    return next();
  };
  const isReal = np.ndarray.parts;

  const ops = {
    load({ source, functions = [] }) {
      load(String(source), functions.filter((f) => /^[A-Za-z_]\w*$/.test(f)).join(','));
      const { answer, functions: found } = bridge.takeAnswer();
      const names = found ? found.split(',') : [];
      if (!answer) return { ok: true, functions: names, error: null };
      const [kind, message, line] = answer;
      if (kind === 'memory') return failure(answer);
      const l = line > 0 ? line : null;
      const text = kind === 'syntax' ? String(message).replace(/^SyntaxError: /, '') : String(message);
      return {
        ok: true,
        functions: names,
        error: {
          message: capMessage(text),
          line: l,
          column: l && kind === 'syntax' ? lineColumn(source, l) : null,
          ...(kind === 'syntax' ? { syntax: true } : {}),
        },
      };
    },
    call({ name, args = [], measure }) {
      if (measure) {
        // Python's prints wait in `bytes` until the request ends: a second run's are dropped with them.
        const out = {
          take: () => {
            flushOutput();
            return output.take();
          },
          write: (t) => output.write(t),
        };
        return measureCall(() => callOnce(name, args, true), {
          limit: measure.limit,
          args,
          isReal,
          output: out,
          heap: bridge.takeHeap,
        });
      }
      return callOnce(name, args, false);
    },
  };
  /** One call into the runtime; `metered`: the runtime samples its heap for kept.heap. */
  function callOnce(name, args, metered) {
    bridge.setArguments(
      args.length,
      args.reduce((out, a) => tokensOf(a, out), []),
    );
    call(String(name), metered);
    const { answer, tokens } = bridge.takeAnswer();
    if (!answer) return { ok: false, kind: 'error', message: 'the runtime did not answer' };
    if (answer[0] === 'missing') return { ok: false, kind: 'missing', message: `${name} is not defined` };
    if (answer[0] === 'invalid') return { ok: false, kind: 'invalid', reason: answer[1], detail: answer[2] };
    if (answer[0] !== 'ok') return failure(answer);
    try {
      return { ok: true, value: encodeValue(valueOf(tokens), isReal) };
    } catch (e) {
      if (e instanceof InvalidValue) return { ok: false, kind: 'invalid', reason: e.reason, detail: e.detail };
      throw e;
    }
  }
  // An exception that escaped the runtime (a fault of its own, or the interpreter out of memory): its
  // type at most, never the interpreter's text, which is a traceback (the runtime's frames and the
  // student's, whose code the runtime never calls once theirs has returned: runtime.py).
  const errorInfo = (e) => {
    const type = e?.name === 'PythonError' ? String(e.type) : null;
    const memory = type ? type === 'MemoryError' : /memory|heap/i.test(String(e?.message ?? e));
    const named = type && /^[A-Za-z_]\w{0,39}$/.test(type) ? ` (${type})` : '';
    return { message: memory ? 'MemoryError' : `the Python runtime failed${named}`, line: null, column: null };
  };
  return createHandle({
    ops,
    errorInfo,
    output,
    // data: a list, or typed data that came packed (wire.mjs), which becomes the array's own buffer.
    makeArray: ({ dtype, shape, data }) =>
      Array.isArray(data) ? np.array(data, dtype).reshape(shape) : new np.ndarray(data, shape, dtype),
    before: () => {
      bridge.startRequest();
      bytes = [];
      cut = false;
    },
    after: flushOutput,
    release,
    work,
    workPerMs: info.workPerMs,
  });
}
