// The types of each pack's ctx.ref (exercises/<slug>/ref.d.ts, grader/core/ref-types.mjs, tools/ref-types):
// - each checked-in file is what its reference/bind.cpp gives now (regenerating changes nothing);
// - they say what the bindings read: names, argument counts and kinds, options' keys and choices, results;
// - tsc, over a suite-like file with the project's options, rejects a call of an unregistered name, one
//   with too many or too few arguments and an option the binding does not read, and takes the right ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXERCISES, listExercises, PACK_FILES, referenceTypes } from '../../grader/index.mjs';
import { bindingSignatures } from '../../grader/core/ref-types.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bindings = (slug) => readFileSync(join(EXERCISES, slug, PACK_FILES.bindings), 'utf8');

test('every pack with a binding has its ref.d.ts, as tools/ref-types writes it now', () => {
  const packs = listExercises().filter((s) => existsSync(join(EXERCISES, s, PACK_FILES.bindings)));
  assert.ok(packs.length >= 5);
  for (const slug of packs) {
    const file = join(EXERCISES, slug, PACK_FILES.refTypes);
    assert.ok(existsSync(file), `exercises/${slug}/${PACK_FILES.refTypes} is missing: run tools/ref-types`);
    assert.equal(readFileSync(file, 'utf8'), referenceTypes(bindings(slug), slug), `${slug}: run tools/ref-types`);
  }
  const r = spawnSync(join(ROOT, 'tools', 'ref-types'), ['--check'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('the signatures are read from what each binding does with its arguments', () => {
  const sig = (slug, name) => {
    const s = bindingSignatures(bindings(slug), slug).find((x) => x.name === name);
    return `${s.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type ?? `{${[...p.keys.keys()]}}`}`).join(', ')} → ${s.returns}`;
  };
  assert.equal(sig('sdpa', 'causal_mask'), 'T: number → RefTensor');
  assert.match(
    sig('sdpa', 'attention'),
    /^q: TensorInput, k: TensorInput, v: TensorInput, mask\?: MaskInput, options\?: \{.*\bscale\b.*\} → \[RefTensor, RefTensor\]$/,
  );
  assert.equal(
    sig('flash', 'flash_attention').replace(/\{.*\}/, '{…}'),
    'Q: TensorInput, K: TensorInput, V: TensorInput, block_size: number, causal?: boolean, options?: {…} → RefTensor',
  );
  assert.match(sig('kv_cache', 'kv_cache_bytes'), /dtype_bytes\?: number, options\?: .* → number$/);
  assert.match(
    sig('kv_cache', 'attend_with_cache'),
    /cache\?: \[TensorInput, TensorInput\], rope\?: \[TensorInput, TensorInput\], .* → \[RefTensor, \[RefTensor, RefTensor\]\]$/,
  );
  assert.match(sig('rope', 'rope_cache'), /^T: number, d_head: number, base\?: number, options\?/);
  const text = referenceTypes(bindings('sdpa'), 'sdpa');
  assert.match(text, /softmax\?: "stable" \| "global_max" \| "no_max"/);
  assert.match(text, /scale\?: number \| "d_k" \| "none"/);
  assert.match(text, /projection\?: string\[\];/);
});

test('tsc rejects a wrong reference call in a suite, and takes the right ones', () => {
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'build', 'ref-types-'));
  try {
    const lines = [
      `/** @typedef {import('${ROOT}exercises/sdpa/ref').Ref} Ref */`,
      `/** @param {import('${ROOT}grader/types').Ctx<Ref>} ctx */`,
      'export function check(ctx, x) {',
      '  ctx.ref.causal_mask(4);', // 4: right
      '  ctx.ref.attention(x, x, x);', // 5: right (mask and options left out)
      "  ctx.ref.softmax(x, { softmax: 'no_max', axis: -1 });", // 6: right
      '  ctx.ref.attenton(x, x, x);', // 7: no such function
      '  ctx.ref.attention(x, x);', // 8: too few
      '  ctx.ref.causal_mask(4, null, 1);', // 9: too many
      "  ctx.ref.softmax(x, { softmax: 'fast' });", // 10: not a choice
      '  ctx.ref.softmax(x, { axes: 1 });', // 11: a key it does not read
      "  ctx.diagnose(x, 'softmx', []);", // 12: no such function
      '}',
    ];
    writeFileSync(join(dir, 'suite.mjs'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: [], files: ['suite.mjs'] }),
    );
    const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', dir], { cwd: ROOT, encoding: 'utf8' });
    const rows = [...r.stdout.matchAll(/suite\.mjs\((\d+),\d+\): error (TS\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual([...new Set(rows)], [7, 8, 9, 10, 11, 12], r.stdout + r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
