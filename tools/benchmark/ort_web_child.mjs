// ort-web-wasm-mt for tools/bench: onnxruntime-web's WASM execution provider with `numThreads = N`,
// in a process of its own (ort-web reads numThreads once per process, when its WASM backend starts,
// and registers itself in a process-wide registry, so 1 thread and N threads cannot share one).
// Same line protocol as native.cpp:
//   node ort_web_child.mjs DIR B H T d causal THREADS      (reads DIR/{q,k,v}.f32)
//   first line: {"threads": N, "version": "..."}; then per stdin line: out | time MIN_MS | quit
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { attentionModel } from './onnx.mjs';

const [dir, B, H, T, d, causal, threads] = process.argv.slice(2);
const [b, h, t, dd, n] = [B, H, T, d, threads].map(Number);
const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = n;
const size = b * h * t * dd;
const read = (name) => {
  const buf = fs.readFileSync(path.join(dir, `${name}.f32`));
  return new Float32Array(buf.buffer, buf.byteOffset, size);
};
const [q, k, v] = ['q', 'k', 'v'].map(read);
const session = await ort.InferenceSession.create(attentionModel({ B: b, H: h, T: t, d: dd, causal: causal === '1' }), {
  executionProviders: ['wasm'],
  graphOptimizationLevel: 'all',
});
const dims = [b, h, t, dd];
const run = async () =>
  (
    await session.run({
      Q: new ort.Tensor('float32', q, dims),
      K: new ort.Tensor('float32', k, dims),
      V: new ort.Tensor('float32', v, dims),
    })
  ).out.data;

const say = (x) => process.stdout.write(`${JSON.stringify(x)}\n`);
say({ threads: ort.env.wasm.numThreads, version: ort.env.versions?.web ?? '?' });
for await (const line of readline.createInterface({ input: process.stdin })) {
  const [op, arg] = line.trim().split(/\s+/);
  if (op === 'out') {
    fs.writeFileSync(path.join(dir, 'out.f32'), await run());
    say({ ok: true });
  } else if (op === 'time') {
    const samples = [],
      start = performance.now();
    do {
      const t0 = performance.now();
      await run();
      samples.push(performance.now() - t0);
    } while (performance.now() - start < Number(arg));
    say({ samples });
  } else if (op === 'quit') {
    break;
  } else {
    say({ error: `unknown command ${op}` });
  }
}
await session.release();
process.exit(0);
