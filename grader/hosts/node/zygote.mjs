// The fork server: warm sandbox children made by copying one that is ready, instead of starting each
// from nothing. A server is a sandbox child (./child.cjs, started by ./spawn.mjs inside the same OS
// boundary and limits) whose realm is made ready once (the guest evaluated and started: the Python
// track's interpreter with numpy imported); it then forks (./zygote.cc, an N-API addon built here
// with the system's compiler) one copy per child asked for. A copy is a process of its own, for one
// submission, as a child started from nothing is: its own memory (copy-on-write of the server's),
// its own CPU count from zero (/proc/<pid>/stat), the same permission model, V8 heap cap and kernel
// limits, killed when the server ends. Node's start, the guest's evaluation and the interpreter's start
// are paid once per server instead of once per child.
//
// Channels: a server is started with SLOTS pairs of extra pipes (fds SLOT_FD, SLOT_FD + 1, …, ./spawn.mjs); copy k
// takes pair k as its frames' channel (fd 0 and fd 3 in the copy) and its stderr (fd 2), so that the
// Node host talks to a copy exactly as to a child it spawned (`Forked` has the ChildProcess members
// ./sandbox.mjs uses). A server whose slots are all taken makes no more copies; it ends once its last
// copy has, and the next one is started when its last slot is taken, so that it is ready by the time
// a copy is asked of it.
//
// Where the addon cannot be built (no C++ compiler or no Node headers), or with ATTNLAB_FORK=off,
// `forkChild` returns null and the sandbox spawns its child as before (`forking()` says why).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFrames, writeFrame } from './frames.mjs';
import { GUEST_DIR, SLOT_FD, isolation, nodePid, spawnChild } from './spawn.mjs';

/** A pipe of a spawned process's stdio: a socket (ref, unref); null where that fd is not piped. */
const socket = (s) => /** @type {import('node:net').Socket} */ (s);

const SOURCE = fileURLToPath(new URL('./zygote.cc', import.meta.url));
export const SLOTS = 12; // copies per server: 2 fds each, within the child's RLIMIT_NOFILE of 64

let addon = null; // { file, size } | { error }

/** The addon's file in GUEST_DIR (built once per source and Node version), or { error } where it cannot be built. */
function zygoteAddon() {
  if (addon) return addon;
  if (process.env.ATTNLAB_FORK === 'off') return (addon = { error: 'ATTNLAB_FORK=off' });
  try {
    const source = readFileSync(SOURCE);
    const key = createHash('sha256').update(source).update(process.version).update(process.arch).digest('hex');
    const file = join(GUEST_DIR, `zygote-${key.slice(0, 16)}.node`);
    if (!existsSync(file)) {
      const headers = [join(dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node'].find((d) =>
        existsSync(join(d, 'node_api.h')),
      );
      if (!headers) return (addon = { error: "Node's headers (node_api.h) are not installed" });
      mkdirSync(GUEST_DIR, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      const cc = process.env.CXX || 'g++';
      const r = spawnSync(cc, ['-O2', '-shared', '-fPIC', '-std=c++17', `-I${headers}`, SOURCE, '-o', tmp], {
        encoding: 'utf8',
        timeout: 60000,
      });
      if (r.status !== 0) {
        rmSync(tmp, { force: true });
        const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0];
        return (addon = { error: `${cc} could not build ${SOURCE}: ${why.slice(0, 200)}` });
      }
      renameSync(tmp, file);
      // builds for another source or Node: a server that loaded one keeps it mapped
      for (const f of readdirSync(GUEST_DIR))
        if (/^zygote-[0-9a-f]{16}\.node$/.test(f) && join(GUEST_DIR, f) !== file)
          rmSync(join(GUEST_DIR, f), { force: true });
    }
    return (addon = { file, size: statSync(file).size });
  } catch (e) {
    return (addon = { error: String(e.message).slice(0, 300) });
  }
}

/** Whether sandboxes that ask for it get copies of a fork server: { on: true } or { on: false, reason }. */
export function forking() {
  const a = zygoteAddon();
  return a.error ? { on: false, reason: a.error } : { on: true };
}

/** A wait status (waitpid) → { code, signal } as a ChildProcess's 'close' gives them. */
function statusOf(status) {
  if ((status & 0x7f) === 0) return { code: (status >> 8) & 0xff, signal: null };
  const n = status & 0x7f;
  return { code: null, signal: Object.keys(constants.signals).find((s) => constants.signals[s] === n) ?? `SIG${n}` };
}

/** The pid in this process's namespace of `server`'s child whose pid in its own namespace is `inner` (its NSpid), or null. */
function hostPid(server, inner) {
  try {
    for (const p of readFileSync(`/proc/${server}/task/${server}/children`, 'utf8').trim().split(' ')) {
      const ns = /^NSpid:\s*(.*)$/m
        .exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1]
        .trim()
        .split(/\s+/);
      if (ns && Number(ns[ns.length - 1]) === inner) return Number(p);
    }
  } catch {
    /* gone */
  }
  return null;
}

/** A copy of a fork server, with the members of a ChildProcess that ./sandbox.mjs uses. */
class Forked extends EventEmitter {
  constructor(server, k) {
    super();
    this.forked = true; // ready once forked: it is sent no guest
    this.server = server;
    const data = socket(server.proc.stdio[SLOT_FD + 2 * k]),
      err = socket(server.proc.stdio[SLOT_FD + 2 * k + 1]);
    data.ref();
    err.ref();
    this.stdin = data;
    this.stdio = [data, null, err, data];
    this.stderr = err;
    this.exitCode = null;
    this.signalCode = null;
    this.pid = null; // in this process's namespace, once known
    this.status = null; // { code, signal } once the server reaped it
    this.made = null; // whether the server made it (and this process found it), once known
    this.killWith = null; // a kill asked for before its pid was known
    let resolvePid;
    this.hostPid = new Promise((resolve) => (resolvePid = resolve)); // ./spawn.mjs nodePid
    this.resolvePid = resolvePid;
    // `made`, once known: false where the server could not make it (it never became ready, or ended
    // first), so that the sandbox spawns a child instead (./sandbox.mjs)
    this.started = this.hostPid.then((pid) => pid !== null);
    let open = 2;
    const closed = () => {
      if (--open === 0) this.maybeClose();
    };
    data.once('close', closed);
    err.once('close', closed);
    this.open = () => open > 0;
  }

  /** The server forked it (pid in the server's namespace) or could not (null). */
  forkedAs(inner, serverPid) {
    // in the boundary's pid namespace, the pid the server saw is not ours; without it, it is
    const pid = inner === null || serverPid === null ? null : isolation().on ? hostPid(serverPid, inner) : inner;
    this.pid = pid;
    this.made = pid !== null;
    this.resolvePid(pid);
    if (pid === null) {
      this.status = { code: null, signal: 'SIGKILL' };
      this.stdin.destroy();
      this.stderr.destroy();
      return; // a copy made that this process cannot find ends with its channel
    }
    if (this.killWith) this.kill(this.killWith);
  }

  ended(status) {
    this.status = statusOf(status);
    this.pid = null; // reaped: the pid may be another process's now
    this.maybeClose();
  }

  maybeClose() {
    if (this.open() || this.exitCode !== null || this.signalCode !== null) return;
    if (!this.status && !this.server.gone) return; // its status comes from the server, unless that ended
    const { code, signal } = this.status ?? { code: null, signal: 'SIGKILL' };
    this.exitCode = code;
    this.signalCode = signal;
    this.server.copyEnded();
    this.emit('close', code, signal);
  }

  kill(signal = 'SIGTERM') {
    if (this.status || this.exitCode !== null || this.signalCode !== null) return false;
    if (this.pid === null) {
      this.killWith = signal;
      return true;
    }
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

class Server {
  constructor(frame, memoryMb, file) {
    this.proc = spawnChild(memoryMb, { slots: SLOTS });
    this.next = 0; // the next slot to hand out
    this.live = 0; // copies handed out that have not ended
    this.gone = false;
    this.pid = null; // its Node process's, once ready
    this.copies = new Map(); // slot → Forked, until forked
    this.byPid = new Map(); // pid in its namespace → Forked
    this.proc.unref();
    for (const s of this.proc.stdio) socket(s)?.unref();
    socket(this.proc.stdin).on('error', () => {});
    socket(this.proc.stderr).resume();
    this.proc.on('error', () => {});
    // Its exit, not its pipes' close: a bwrap killed before it armed its die-with-parent leaves the
    // Node process inside holding them open (ended here by closing them: its stdin ends).
    this.proc.on('exit', () => this.#ended());
    const first = new Promise((resolve) => (this.onFirst = resolve));
    readFrames(socket(this.proc.stdio[3]), (body) => this.#message(body));
    this.failed = false; // it ended, or said it could not start, before it was ready
    this.ready = first.then(async (m) => {
      if (m?.ready) this.pid = await nodePid(this.proc);
      this.failed = this.pid === null;
      if (this.failed) this.proc.kill('SIGKILL');
      return !this.failed;
    });
    frame.then(
      (f) => writeFrame(this.proc.stdin, { ...f, zygote: { addon: file, first: SLOT_FD, slots: SLOTS } }),
      () => this.proc.kill('SIGKILL'),
    );
  }

  get full() {
    return this.next >= SLOTS || this.gone;
  }

  /** A copy in the next slot: asked of the server once it is ready. */
  take() {
    const k = this.next++;
    const copy = new Forked(this, k);
    // While a copy lives, its end is reported on the server's channel, or known from the server's own
    // end: both keep this process running (with the channel alone, a server killed before it was ready
    // could close it before its exit is seen, and this process would end with copies still waiting).
    if (this.live++ === 0) {
      socket(this.proc.stdio[3]).ref();
      this.proc.ref();
    }
    this.copies.set(k, copy);
    this.ready.then((ok) => {
      if (ok && !this.gone) writeFrame(this.proc.stdin, { fork: k });
      else this.#unforked(k);
    });
    return copy;
  }

  #unforked(k) {
    const copy = this.copies.get(k);
    this.copies.delete(k);
    copy?.forkedAs(null, null);
  }

  #message(body) {
    let m;
    try {
      m = JSON.parse(body);
    } catch {
      return;
    }
    if (this.onFirst) {
      const resolve = this.onFirst;
      this.onFirst = null;
      return resolve(m);
    }
    if (Number.isInteger(m?.forked)) {
      const copy = this.copies.get(m.forked);
      this.copies.delete(m.forked);
      if (!copy) return;
      if (!Number.isInteger(m.pid)) return copy.forkedAs(null, null);
      this.byPid.set(m.pid, copy);
      return copy.forkedAs(m.pid, this.pid);
    }
    if (Array.isArray(m?.exited)) {
      for (let i = 0; i + 1 < m.exited.length; i += 2) {
        const copy = this.byPid.get(m.exited[i]);
        this.byPid.delete(m.exited[i]);
        copy?.ended(m.exited[i + 1]);
      }
    }
  }

  /** A copy has ended: the last of a full server ends the server. */
  copyEnded() {
    if (--this.live > 0) return;
    socket(this.proc.stdio[3]).unref();
    this.proc.unref();
    if (this.full) socket(this.proc.stdin).end();
  }

  #ended() {
    this.gone = true;
    for (const s of this.proc.stdio) socket(s)?.destroy();
    this.onFirst?.(null);
    for (const k of [...this.copies.keys()]) this.#unforked(k);
    for (const copy of this.byPid.values()) copy.maybeClose();
    this.byPid.clear();
  }
}

const servers = new Map(); // `${track}:${memoryMb}` → the server handing out copies

/**
 * A sandbox child for one submission of the track named `name`, a copy of its fork server (started
 * with `frame`, the guest's first frame, when there is none with free slots); null where forking is
 * off, or where a server of this track and memory limit failed to start in this process: its children
 * are spawned from then on, as the copies it had been asked for are (`started` false).
 */
export function forkChild(name, frame, memoryMb) {
  const a = zygoteAddon();
  if (a.error) return null;
  const key = `${name}:${memoryMb}`;
  let server = servers.get(key);
  if (server?.failed) return null;
  if (!server || server.full) servers.set(key, (server = new Server(frame, memoryMb, a)));
  const copy = server.take();
  if (server.full) servers.set(key, new Server(frame, memoryMb, a)); // ready before it is needed
  return copy;
}
