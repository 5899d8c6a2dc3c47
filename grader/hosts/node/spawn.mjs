// The sandbox child's process (./child.cjs) as every Node sandbox starts it, and one started early:
// the CLI asks for it before it loads the grader (`prespawn`), so that Node's own start in the child,
// the largest part of a child's start, overlaps the grader's imports instead of following them. The
// process does not depend on the track (the track's guest arrives later, in its first frame); the first
// sandbox with the same memory limit takes it (`takeChild`), and one never taken is killed
// (`discardPrespawned`) so that it cannot keep the CLI alive.
//
// The OS boundary (`isolation()`, grader/hosts/README.md): where bubblewrap can make namespaces, each
// child runs in its own user, network (no interface up), mount, pid, IPC, UTS and cgroup namespaces,
// as an unprivileged uid with no capabilities and no new privileges, seeing read-only only the Node
// binary, its shared libraries, prlimit and child.cjs, plus a small tmpfs at /tmp, its own /proc and a
// minimal /dev; killed with its parent; under kernel resource limits set by prlimit inside the user
// namespace (KERNEL_LIMITS). One probe says whether this works, its yes kept on disk for later processes
// of the same boot and binaries (PROBE_CACHE); where it does not,
// or with ATTNLAB_ISOLATION=off, the child is the plain process (the permission model and the
// sandbox's own limits only) and `isolation()` says why.
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { constants, release } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../../limits.mjs';
import { writeAtomic } from './write-atomic.mjs';

export const CHILD = fileURLToPath(new URL('./child.cjs', import.meta.url));
// The guests' files (./guest-bundle.mjs), which a child reads itself: the one folder of the repository it
// may read besides its script (read-only under bwrap too), so it holds nothing else.
export const GUEST_DIR = fileURLToPath(new URL('../../dist/guest', import.meta.url));
// V8's stack for the child, in KiB: about what a Chromium Web Worker gets (measured: 6,352 frames of
// a one-line recursion there, 6,3xx here with 455, 13,663 with Node's default), so that recursion or a
// spread of many arguments fails at about the same size in both hosts.
const STACK_KB = 455;
// Node 20-21 spell it --experimental-permission; later versions --permission.
const PERMISSION = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

/**
 * The kernel's limits of one isolated child (prlimit names → values), for a V8 heap cap of `memoryMb`.
 * - data: RLIMIT_DATA, the private writable memory the process may map. Not RLIMIT_AS: V8 reserves
 *   address space it never touches (the 4 GiB pointer cage, ~10 GiB per WebAssembly memory for its
 *   guard regions), which RLIMIT_AS counts and RLIMIT_DATA does not (a reservation is PROT_NONE until
 *   used). The sandbox's own watch kills a child whose resident memory grows past the budget; this
 *   is the kernel's backstop above it (the budget, Node's own ~DATA_BASE_MB, and as much again for
 *   what V8 maps before it touches it).
 * - cpu: RLIMIT_CPU, seconds of CPU of the whole process (every thread), above the longest deadline
 *   the CLI accepts (--deadline-ms 3600000): only a backstop, the grader ends a request long before.
 * - nofile 64 (a ready child holds ~20), fsize 64 KiB (nothing writes a file), core 0 (no dump
 *   written, nor handed to the host's crash handler), nproc 32 tasks of the sandbox's uid in its own
 *   user namespace (a ready child runs ~11 threads: Node's, V8's and libuv's).
 */
export function kernelLimits(memoryMb) {
  return {
    data: (2 * memoryMb + DATA_BASE_MB) * 2 ** 20,
    cpu: LIMITS.cpuBackstopS,
    nofile: 64,
    fsize: 64 * 1024,
    core: 0,
    nproc: 32,
  };
}
const DATA_BASE_MB = 512;
const TMPFS_BYTES = 2 ** 20;
const NOBODY = 65534;
// Run as root, bwrap itself starts as nobody: the sandbox's uid then maps to a uid other than root's
// outside, whose tasks the kernel counts (root's are never held to RLIMIT_NPROC).
const AS = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};

const onPath = (name) =>
  [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin']
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((f) => existsSync(f)) ?? null;

/** The program interpreter (the dynamic loader) an ELF64 binary names, or null for a static one. */
function interpreterOf(binary) {
  const fd = openSync(binary, 'r');
  try {
    const head = Buffer.alloc(64);
    readSync(fd, head, 0, 64, 0);
    if (head.readUInt32BE(0) !== 0x7f454c46 || head[4] !== 2 || head[5] !== 1)
      throw new Error(`${binary} is not a 64-bit little-endian ELF binary`);
    const phoff = Number(head.readBigUInt64LE(0x20)),
      size = head.readUInt16LE(0x36),
      count = head.readUInt16LE(0x38);
    const table = Buffer.alloc(size * count);
    readSync(fd, table, 0, table.length, phoff);
    for (let i = 0; i < count; i++) {
      if (table.readUInt32LE(i * size) !== 3) continue; // PT_INTERP
      const at = Number(table.readBigUInt64LE(i * size + 8)),
        len = Number(table.readBigUInt64LE(i * size + 32));
      const path = Buffer.alloc(len);
      readSync(fd, path, 0, len, at);
      return path.toString('latin1').replace(/\0.*$/s, '');
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Binaries and the shared libraries they load (as ldd lists them, from the loader itself: no shell), as absolute paths. */
function withLibraries(binaries) {
  const all = [...binaries];
  for (const binary of binaries) {
    const loader = interpreterOf(binary);
    if (!loader) continue;
    const r = spawnSync(loader, ['--list', binary], { encoding: 'utf8', env: {}, timeout: 5000 });
    if (r.status !== 0)
      throw new Error(`${loader} --list ${binary}: ${(r.stderr || r.error?.message || '').trim().slice(0, 200)}`);
    all.push(loader, ...[...r.stdout.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((m) => m[1]));
  }
  return [...new Set(all)];
}

/** The wrapper's binaries: { bwrap, prlimit, node } (prlimit and node resolved); throws if one is missing. */
function binaries() {
  const bwrap = onPath('bwrap'),
    prlimit = onPath('prlimit');
  if (!bwrap) throw new Error('bubblewrap (bwrap) is not installed');
  if (!prlimit) throw new Error('prlimit (util-linux) is not installed');
  return { bwrap, prlimit: realpathSync(prlimit), node: realpathSync(process.execPath) };
}

let tools = null; // { bwrap, prlimit, node, binds: [path…] }, found once
/** The binaries (`found`, else looked up) and what to bind for them (`binds`: a kept list, else ldd's), once per process. */
function wrapperTools(found = null, binds = null) {
  if (tools) return tools;
  const b = found ?? binaries();
  tools = { ...b, binds: binds ?? withLibraries([b.node, b.prlimit]) };
  return tools;
}

/**
 * The argv that runs `command` (its first element an absolute path) inside the OS boundary: bwrap,
 * then prlimit with `limits` (kernelLimits' form), then the command. `files`: more files the command
 * needs, bound read-only at their own paths. bwrap writes `{ "child-pid": … }` (its reaper, pid 1
 * inside; the command is that reaper's only child) to `infoFd` when it is given.
 */
export function isolatedArgv(command, { limits, files = [], infoFd = null }) {
  const { bwrap, prlimit, binds } = wrapperTools();
  const mounts = [...new Set([...binds, ...files])].flatMap((f) => ['--ro-bind', realpathSync(f), f]);
  return [
    bwrap,
    '--unshare-all',
    '--unshare-user',
    '--uid',
    String(NOBODY),
    '--gid',
    String(NOBODY),
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    // /tmp before the files: a grader installed below /tmp binds its child.cjs into this tmpfs, not under it
    '--size',
    String(TMPFS_BYTES),
    '--tmpfs',
    '/tmp',
    ...mounts,
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    '/',
    ...(infoFd === null ? [] : ['--info-fd', String(infoFd)]),
    '--',
    prlimit,
    ...Object.entries(limits).map(([name, value]) => `--${name}=${value}`),
    '--',
    ...command,
  ];
}

let probed = null;
let fromKept = false; // probed came from PROBE_CACHE
// A probe's yes, kept for the processes that follow (a cold CLI grade waited ~50 ms for its probe before
// its child could start): valid while everything it depended on is as it was (`probeKey`). Only a yes
// is kept (a no can be a passing refusal, and costs nothing to find again), and a kept yes that a child
// then fails to start with is forgotten (`startFailed`), so a stale one costs one grade at most.
// (ATTNLAB_ISOLATION_CACHE: another file, tests/js/isolation.test.mjs's.)
const PROBE_CACHE =
  process.env.ATTNLAB_ISOLATION_CACHE || fileURLToPath(new URL('../../dist/isolation.json', import.meta.url));
const readOr = (file, fallback = null) => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return fallback;
  }
};
/** What the probe's verdict depends on: the boot, kernel, user-namespace sysctls, uid, the binaries, the limits. */
function probeKey({ bwrap, prlimit, node }) {
  const id = (f) => {
    const st = statSync(f);
    return [f, st.size, st.mtimeMs, st.ino];
  };
  return JSON.stringify([
    1,
    readOr('/proc/sys/kernel/random/boot_id'),
    release(),
    [
      '/proc/sys/user/max_user_namespaces',
      '/proc/sys/kernel/unprivileged_userns_clone',
      '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
    ].map((f) => readOr(f)),
    process.getuid?.(),
    id(node),
    id(realpathSync(bwrap)),
    id(prlimit),
    CHILD,
    kernelLimits(LIMITS.memoryMb),
  ]);
}

/**
 * Whether children run inside the OS boundary: { on: true, mechanism } or { on: false, reason }.
 * Decided once per process: ATTNLAB_ISOLATION=off turns it off; else a kept yes of an earlier probe
 * (PROBE_CACHE) or one probe that runs `node --version` through the same wrapper and limits as a child
 * (a kernel that refuses namespaces fails it).
 */
export function isolation() {
  if (probed) return probed;
  if (process.env.ATTNLAB_ISOLATION === 'off') return (probed = { on: false, reason: 'ATTNLAB_ISOLATION=off' });
  // nodePid finds the Node process inside through this file (a kernel built with CONFIG_PROC_CHILDREN)
  if (!existsSync(`/proc/self/task/${process.pid}/children`))
    return (probed = { on: false, reason: 'no /proc/<pid>/task/<tid>/children to find the sandboxed process by' });
  try {
    const found = binaries();
    const key = probeKey(found);
    const kept = parseKept(readOr(PROBE_CACHE, ''), key);
    if (kept) {
      wrapperTools(found, kept.binds);
      fromKept = true;
      return (probed = { on: true, mechanism: 'bubblewrap' });
    }
    const { node } = wrapperTools(found);
    const [file, ...args] = isolatedArgv([node, '--version'], {
      limits: kernelLimits(LIMITS.memoryMb),
      files: [CHILD],
    });
    const r = spawnSync(file, args, { encoding: 'utf8', env: {}, timeout: 10000, ...AS });
    if (r.status === 0 && r.stdout.trim() === process.version) {
      keep({ key, binds: tools.binds });
      return (probed = { on: true, mechanism: 'bubblewrap' });
    }
    const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n')[0];
    return (probed = { on: false, reason: why.slice(0, 300) });
  } catch (e) {
    return (probed = { on: false, reason: String(e.message).slice(0, 300) });
  }
}

/** A kept verdict for `key`: { binds } (absolute paths, each still there), or null (none, another key, malformed, a file gone). */
function parseKept(text, key) {
  try {
    const v = JSON.parse(text);
    return v &&
      v.key === key &&
      Array.isArray(v.binds) &&
      v.binds.every((b) => typeof b === 'string' && b.startsWith('/') && existsSync(b))
      ? v
      : null;
  } catch {
    return null;
  }
}

/** Writes the probe's yes (atomically: a reader sees the old file or the new one); a grader it cannot write into keeps none. */
function keep(value) {
  try {
    mkdirSync(dirname(PROBE_CACHE), { recursive: true });
    writeAtomic(PROBE_CACHE, JSON.stringify(value));
  } catch {
    /* read-only: every process probes */
  }
}

/** A child under the boundary ended before it was ready: a kept yes may be stale (a sysctl changed); the next process probes again. */
export function startFailed() {
  if (fromKept) rmSync(PROBE_CACHE, { force: true });
}

/**
 * Node's flags for a sandbox child (before the script): the permission model (reads only `script` and
 * the guests' files), the V8 heap cap. A fork server (`server`, ./zygote.mjs) may also load its addon,
 * and runs V8 without background tasks: its copies have only the thread that forked, so nothing may
 * wait for a task that a helper thread was to run.
 */
function nodeFlags(memoryMb, script, permission, server) {
  return [
    ...(permission ? [PERMISSION, `--allow-fs-read=${script}`, `--allow-fs-read=${GUEST_DIR}/*`] : []),
    ...(server ? ['--allow-addons', '--single-threaded'] : []),
    '--no-warnings',
    `--max-old-space-size=${memoryMb}`,
    '--max-semi-space-size=16',
    `--stack-size=${STACK_KB}`,
    '--disallow-code-generation-from-strings',
    // A realm that runs an interpreter compiled to WebAssembly (the Python track): baseline code only.
    // A grading run is too short for V8's optimizing tier to pay off, and its background compiles
    // compete with the interpreter's start (cold CLI grade of the first pack's solution.py, 8 interleaved
    // runs on two loaded cores: median 393 ms with tiering, 340 ms without). A realm without WebAssembly
    // (JavaScript) is not concerned; on the command line, so that the child need not load node:v8 to set it.
    '--liftoff-only',
  ];
}

const INFO = Symbol('bwrap info');
const INFO_FD = 4;
/** A fork server's first slot fd (./zygote.mjs): its pairs of pipes follow bwrap's info fd (or its place, left empty). */
export const SLOT_FD = INFO_FD + 1;

/**
 * A new child: an empty environment, Node's flags (the permission model, the V8 heap cap), and where
 * isolation() is on, the OS boundary around it. Its stdio: 0 frames in, 2 stderr, 3 frames out
 * (child.cjs); under bwrap also 4, bwrap's info; a fork server (`slots`, ./zygote.mjs) also `slots`
 * pairs of pipes from fd 5 on, its copies' channels. The other options are the isolation tests' (a
 * probe inside the same boundary): `script` instead of child.cjs, `permission: false` to meet the
 * kernel's limits rather than Node's, other kernel `limits`.
 */
export function spawnChild(
  memoryMb,
  { script = CHILD, permission = true, limits = kernelLimits(memoryMb), slots = 0 } = {},
) {
  /** @type {import('node:child_process').IOType[]} */
  const pairs = Array(2 * slots).fill('pipe');
  /** @type {import('node:child_process').IOType[]} */
  const stdio = ['pipe', 'ignore', 'pipe', 'pipe'];
  /** @type {import('node:child_process').IOType[]} */
  const plain = slots ? [...stdio, 'ignore', ...pairs] : stdio;
  const opts = { env: {}, stdio: plain, windowsHide: true };
  const command = [...nodeFlags(memoryMb, script, permission, slots > 0), script, ...(slots > 0 ? ['server'] : [])];
  if (!isolation().on) return spawn(process.execPath, command, opts);
  mkdirSync(GUEST_DIR, { recursive: true }); // bound before the guests are built there (a first run)
  const files = [script, GUEST_DIR];
  const [file, ...args] = isolatedArgv([wrapperTools().node, ...command], { limits, files, infoFd: INFO_FD });
  const proc = spawn(file, args, { ...opts, stdio: [...stdio, 'pipe', ...pairs], ...AS });
  proc[INFO] = readInfo(proc.stdio[INFO_FD]);
  return proc;
}

/** bwrap's info (one JSON object, written once) → its reaper's pid; null if it never came. */
function readInfo(stream) {
  return new Promise((resolve) => {
    let text = '';
    const parsed = () => {
      try {
        const pid = JSON.parse(text)['child-pid'];
        return Number.isInteger(pid) && pid > 0 ? pid : null;
      } catch {
        return undefined;
      }
    };
    stream.on('data', (d) => {
      if (text.length < 4096) text += d;
      const pid = parsed();
      if (pid !== undefined) resolve(pid);
    });
    stream.on('error', () => resolve(null));
    stream.on('close', () => resolve(parsed() ?? null));
  });
}

/**
 * The pid (in this process's namespace) of the Node process of a child that has started (its first
 * frame arrived): the child itself, or under bwrap the one child of bwrap's reaper. Signals (SIGINT)
 * and /proc reads (CPU time, memory) go to it. null if it is gone.
 */
export async function nodePid(proc) {
  if (proc.hostPid) return proc.hostPid; // a fork server's copy (./zygote.mjs)
  if (!proc[INFO]) return proc.pid ?? null;
  const reaper = await proc[INFO];
  if (reaper === null) return null;
  try {
    const pid = Number(readFileSync(`/proc/${reaper}/task/${reaper}/children`, 'utf8').trim().split(' ')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** How the child's Node process ended, from its 'close' event: bwrap reports a command killed by signal N as exit code 128 + N. */
export function exitOf(proc, code, signal) {
  if (proc[INFO] && signal === null && code > 128) {
    const name = Object.keys(constants.signals).find((s) => constants.signals[s] === code - 128);
    if (name) return { code: null, signal: name };
  }
  return { code, signal };
}

let early = null; // { memoryMb, proc }

/** Starts one child now, for the first sandbox to take. */
export function prespawn(memoryMb = LIMITS.memoryMb) {
  early ??= { memoryMb, proc: spawnChild(memoryMb) };
}

/** The child started early, if it has the same memory limit and is still running; else a new one. */
export function takeChild(memoryMb) {
  const taken = early;
  early = null;
  if (taken && taken.memoryMb === memoryMb && taken.proc.exitCode === null && taken.proc.signalCode === null)
    return taken.proc;
  taken?.proc.kill('SIGKILL');
  return spawnChild(memoryMb);
}

/** Kills a child started early that no sandbox took. */
export function discardPrespawned() {
  early?.proc.kill('SIGKILL');
  early = null;
}
