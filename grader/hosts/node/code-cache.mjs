// V8's code cache of a track's guest bundle, so that a spawned child does not compile the bundle's
// functions again (`vm.Script`'s `cachedData`): the bytecode of what the guest's evaluation and start
// compiled, ~300 KB for the Python guest. A child asked to make it (none on disk yet) makes it once its
// realm is ready, before it has been sent anything of a submission, and hands it over in its ready
// frame; this process writes it to GUEST_DIR, where the next children read it themselves (child.cjs).
// No other frame's bytes are ever kept: what reaches V8 as code was made by a realm that had run only
// the guest.
//
// V8 checks a cache against the source's length and its own flags, not the source's content: the file
// is named by the bundle's build (its file's time and size: a rebuilt bundle of the same length never
// meets an old cache) and by the memory limit (the child's heap flag is among those V8 checks). One it
// rejects costs only the compile it would have saved. A fork server neither makes nor reads one (its
// start is paid once).
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GUEST_DIR } from './spawn.mjs';
import { writeAtomic } from './write-atomic.mjs';

const MAX_BYTES = 8 * 2 ** 20; // a cache this large is not one of ours
const asked = new Set(); // caches this process has asked a child to make

/**
 * The bundle's build, as its file's modification time and size say (./guest-bundle.mjs writes a new
 * file, or dates the same bytes anew, for every build): read once per process and file.
 */
const builds = new Map();
function buildOf(script) {
  if (!builds.has(script.file)) {
    const st = statSync(script.file);
    builds.set(script.file, `${Math.trunc(st.mtimeMs)}-${st.size}`);
  }
  return builds.get(script.file);
}

const fileOf = (name, script, memoryMb) => join(GUEST_DIR, `${name}-${buildOf(script)}-${memoryMb}.v8cache`);

/**
 * What a spawned child's first frame adds for the track `name` (its frame's `guest` file): `cache`, the
 * file to read ({ file, size }), or `makeCache` where there is none yet (asked of one child per
 * process); {} where the bundle cannot be read.
 */
export function codeCache(name, script, memoryMb) {
  try {
    const file = fileOf(name, script, memoryMb);
    try {
      return { cache: { file, size: statSync(file).size } };
    } catch {
      if (asked.has(file)) return {};
      asked.add(file);
      return { makeCache: true };
    }
  } catch {
    return {};
  }
}

/**
 * Keeps the cache a child made (`base64`, from its ready frame) for the track `name`, removing those of
 * the track's older bundles; ignored if it was not asked for, is malformed or too large, or the folder
 * is not writable.
 */
export function keepCodeCache(name, script, memoryMb, base64) {
  try {
    const file = fileOf(name, script, memoryMb);
    if (!asked.has(file) || typeof base64 !== 'string' || base64.length > (MAX_BYTES * 4) / 3 + 4) return;
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length === 0) return;
    writeAtomic(file, bytes);
    const build = buildOf(script);
    for (const f of readdirSync(GUEST_DIR)) {
      const m = /^(.+)-(\d+-\d+)-\d+\.v8cache$/.exec(f);
      if (m && m[1] === name && m[2] !== build) rmSync(join(GUEST_DIR, f), { force: true }); // an older build's
    }
  } catch {
    /* not kept: the next process asks again */
  }
}
