// The reference's answers kept on disk between runs (grader/hosts/node/ref-store.mjs): a second run
// computes nothing and grades the same; a file of another core, a damaged file or `off` is not read;
// the file stays bounded; the CLI writes it and a second cold grade reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../wasm/index.mjs';
import { NodeSandbox, TRACKS, cachedCore, grade, loadExercise, refStore, refStoreDir } from '../../grader/index.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'attnlab-refs-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

const withoutTime = (report) => JSON.stringify({ ...report, time_ms: undefined });
const plain = await loadCore({ threads: 1 });
const exercise = await loadExercise('sdpa');
const solution = readFileSync(join(ROOT, 'exercises', 'sdpa', 'solution.js'), 'utf8');

async function gradeWith(core) {
  const sandbox = await NodeSandbox.create({ track: TRACKS.js });
  try {
    return await grade({ exercise, source: solution, track: TRACKS.js, sandbox, core, lang: 'en' });
  } finally {
    await sandbox.close();
  }
}

test('a second run reads every expected value from the file: nothing computed, the same report', async () => {
  const dir = join(tmp, 'twice');
  const first = refStore({ slug: 'sdpa', core: plain, dir });
  const core1 = cachedCore(plain, { store: await first });
  const r1 = await gradeWith(core1);
  assert.ok(core1.refCache.misses > 0 && core1.refCache.stored === 0, 'the first run computes');
  await (await first).save();
  assert.ok(existsSync(join(dir, 'sdpa.bin')));

  const core2 = cachedCore(plain, { store: await refStore({ slug: 'sdpa', core: plain, dir }) });
  const r2 = await gradeWith(core2);
  assert.equal(core2.refCache.misses, 0, 'the second run computes no expected value (the fast path included)');
  assert.equal(core2.refCache.stored, core1.refCache.misses);
  assert.equal(withoutTime(r2), withoutTime(r1));
  assert.equal(withoutTime(r2), withoutTime(await gradeWith(plain)), 'the same report as without any cache');
});

test("another core's file, a damaged file and `off` are not read; a bad slug keeps nothing", async () => {
  const dir = join(tmp, 'other');
  const x = { data: [1, 2, 3, 4], shape: [2, 2] };
  const a = await refStore({ slug: 'sdpa', core: plain, dir, id: 'build-a' });
  cachedCore(plain, { store: a }).softmax(x);
  await a.save();
  const again = cachedCore(plain, { store: await refStore({ slug: 'sdpa', core: plain, dir, id: 'build-a' }) });
  const kept = again.softmax(x);
  assert.equal(again.refCache.stored, 1, 'the same build reads it');
  // The file's answers are views into the whole file's buffer: each one handed out is a copy of its own
  // elements only (a copy of the whole buffer per answer made a batch's every hit cost ~0.5 ms).
  for (const answer of [kept, again.softmax(x)]) {
    assert.ok(ArrayBuffer.isView(answer.data), 'a typed array');
    assert.equal(answer.data.buffer.byteLength, answer.data.byteLength, 'its own buffer, not the file');
  }
  kept.data[0] = 99;
  assert.deepEqual(again.softmax(x), plain.softmax(x), 'an answer from the file edited in place changes nothing');
  const b = cachedCore(plain, { store: await refStore({ slug: 'sdpa', core: plain, dir, id: 'build-b' }) });
  assert.deepEqual(b.softmax(x), plain.softmax(x));
  assert.equal(b.refCache.stored, 0, "another build's answers are not used");

  writeFileSync(join(dir, 'sdpa.bin'), 'not a serialized value');
  const damaged = await refStore({ slug: 'sdpa', core: plain, dir, id: 'build-a' });
  const c = cachedCore(plain, { store: damaged });
  assert.deepEqual(c.softmax(x), plain.softmax(x));
  assert.equal(c.refCache.misses, 1, 'a damaged file is as if there were none');
  await damaged.save();
  const mended = cachedCore(plain, { store: await refStore({ slug: 'sdpa', core: plain, dir, id: 'build-a' }) });
  mended.softmax(x);
  assert.equal(mended.refCache.stored, 1, 'and is written again whole');

  assert.equal(refStoreDir({ ATTNLAB_REF_CACHE: 'off' }), null);
  assert.equal(refStoreDir({ ATTNLAB_REF_CACHE: dir }), dir);
  assert.equal(await refStore({ slug: '../x', core: plain, dir }), null, 'a slug that is not a plain name');
  assert.equal(await refStore({ slug: 'sdpa', core: plain, dir: null }), null);
});

test('over its bound the file keeps only what the last run used; answers handed out are copies', async () => {
  const dir = join(tmp, 'bound');
  const big = (n) => ({ data: Array.from({ length: n * n }, (_, i) => i % 7), shape: [n, n] });
  const s1 = await refStore({ slug: 'sdpa', core: plain, dir, id: 'b', maxBytes: 3500 });
  const c1 = cachedCore(plain, { store: s1 });
  c1.softmax(big(12)); // 1152 bytes
  c1.softmax(big(13)); // 1352 bytes
  await s1.save();
  const s2 = await refStore({ slug: 'sdpa', core: plain, dir, id: 'b', maxBytes: 3500 });
  const c2 = cachedCore(plain, { store: s2 });
  c2.softmax(big(13));
  c2.softmax(big(14)); // with the file’s two, over 3500 (typed bytes and a little per value)
  assert.equal(c2.refCache.stored, 1);
  await s2.save();
  const c3 = cachedCore(plain, { store: await refStore({ slug: 'sdpa', core: plain, dir, id: 'b', maxBytes: 3500 }) });
  c3.softmax(big(12));
  c3.softmax(big(13));
  c3.softmax(big(14));
  assert.equal(c3.refCache.stored, 2, 'the last run’s two answers kept, the older one dropped');
  const got = c3.softmax(big(13));
  got.data[0] = 99;
  assert.deepEqual(c3.softmax(big(13)), plain.softmax(big(13)), 'an answer edited in place changes nothing');
});

test('the CLI writes the file on its first grade and reads it on the next: the same report', () => {
  const dir = join(tmp, 'cli');
  const run = () =>
    spawnSync(process.execPath, ['grader/cli.mjs', 'grade', 'exercises/sdpa/solution.js', '--format', 'json'], {
      cwd: ROOT,
      env: { ...process.env, ATTNLAB_REF_CACHE: dir },
      encoding: 'utf8',
    });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  assert.ok(existsSync(join(dir, 'sdpa.bin')), 'written');
  const written = readFileSync(join(dir, 'sdpa.bin'));
  const second = run();
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stdout, first.stdout);
  assert.deepEqual(readFileSync(join(dir, 'sdpa.bin')), written, 'nothing new computed, nothing written');
  const off = spawnSync(
    process.execPath,
    ['grader/cli.mjs', 'grade', 'exercises/sdpa/solution.js', '--format', 'json'],
    {
      cwd: ROOT,
      env: { ...process.env, ATTNLAB_REF_CACHE: 'off' },
      encoding: 'utf8',
    },
  );
  assert.equal(off.stdout, first.stdout);
});
