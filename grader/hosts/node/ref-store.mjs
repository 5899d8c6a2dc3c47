// The reference's answers kept on disk between runs, for core/ref-cache.mjs's `cachedCore`: a cold
// `grade` of a pack graded before with the same core computes no expected value (the reference's calls
// and the WebAssembly compilation they set off in the background, which the process's exit waits for,
// leave its critical path). One file per pack, `grader/dist/refs/<slug>.bin` (ATTNLAB_REF_CACHE: another
// folder, or `off`), v8-serialized: { version, id, entries: [[key, answer], …] }.
// - id: the core's build (its flavour and its .wasm's size, mtime and inode) and Node's version; a file
//   of another id is not read (the answers of a rebuilt reference may differ in their last bits).
// - written at the end of a run that computed something new (save()), whole, to a temporary file
//   renamed over the old one (two processes at once: the last one's file stays, both are whole); it
//   holds the answers of this run and of the file it read, or when over `maxBytes` this run's only.
// - anything wrong with the file (unreadable, another shape, another id) is as if there were none, and
//   saving fails silently: a cache costs a grade its speed at most, never its verdict.
import { readFile, rename, stat, unlink, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { FLAVOURS } from '../../../wasm/index.mjs';

const VERSION = 1;
const DEFAULT_DIR = fileURLToPath(new URL('../../dist/refs/', import.meta.url));

/** The folder answers are kept in, or null when keeping them is off (ATTNLAB_REF_CACHE=off). */
export function refStoreDir(env = process.env) {
  const v = env.ATTNLAB_REF_CACHE;
  if (v === 'off') return null;
  return v || DEFAULT_DIR;
}

/** What a file's answers were computed by: the core's flavour and build, and this Node. */
async function coreId(core) {
  const build = FLAVOURS[core.flavour];
  if (!build) return null;
  const s = await stat(fileURLToPath(new URL(`../../../wasm/dist/${build.file}.wasm`, import.meta.url)));
  return `${core.flavour}:${s.size}:${s.mtimeMs}:${s.ino}:${process.version}`;
}

/**
 * The store of one pack's answers for `core`, read from `dir` → { get(key), put(key, value, bytes), save() }
 * (`cachedCore`'s `store`), or null where there is no folder (off) or the core's build cannot be told.
 * `id`: what the answers were computed by (by default the core's build, coreId; the tests give their own).
 */
export async function refStore({ slug, core, dir = refStoreDir(), maxBytes = 16 * 2 ** 20, id = undefined }) {
  if (!dir || typeof slug !== 'string' || !/^[\w-]+$/.test(slug)) return null;
  try {
    id ??= await coreId(core);
  } catch {
    return null;
  }
  if (!id) return null;
  const file = join(dir, `${slug}.bin`);
  /** @type {Map<string, { value: any, bytes: number }>} */
  const kept = new Map();
  try {
    const body = v8.deserialize(await readFile(file));
    if (body && body.version === VERSION && body.id === id && Array.isArray(body.entries))
      for (const e of body.entries)
        if (Array.isArray(e) && typeof e[0] === 'string' && typeof e[2] === 'number')
          kept.set(e[0], { value: e[1], bytes: e[2] });
  } catch {
    // none, unreadable or another shape: start empty
  }
  const used = new Map(); // this run's answers, read or computed
  let added = 0;
  return {
    get(key) {
      const e = kept.get(key);
      if (e) used.set(key, e);
      return e?.value;
    },
    put(key, value, bytes) {
      const e = { value, bytes };
      kept.set(key, e);
      used.set(key, e);
      added++;
    },
    /** Writes the file if this run computed something new. */
    async save() {
      if (added === 0) return;
      added = 0;
      let total = 0;
      for (const e of kept.values()) total += e.bytes;
      const keep = total > maxBytes ? used : kept;
      const entries = [];
      total = 0;
      for (const [k, e] of keep) {
        if (total + e.bytes > maxBytes) break;
        total += e.bytes;
        entries.push([k, e.value, e.bytes]);
      }
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(tmp, v8.serialize({ version: VERSION, id, entries }));
        await rename(tmp, file);
      } catch {
        await unlink(tmp).catch(() => {});
      }
    },
  };
}
