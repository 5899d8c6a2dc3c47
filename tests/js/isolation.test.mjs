// The OS boundary around every Node sandbox child (grader/hosts/node/spawn.mjs, grader/hosts/README.md),
// proved from inside: a probe (tests/fixtures/isolation/probe.mjs) started by spawnChild exactly as a
// sandbox child is (same wrapper, namespaces, mounts, kernel limits, stdio), with its own file as the
// script, tries what a submission might: connect out, read and write files, start processes, take
// memory, spin, outlive its parent. Mostly without Node's permission model (`permission: false`), so
// that what stops it is the kernel; the network check also with it, as the child runs. Then the
// fallback: ATTNLAB_ISOLATION=off, --verbose, --require-isolation and run.json.
// Where this kernel refuses namespaces, the checks that need them are skipped (and say why), unless
// ATTNLAB_REQUIRE_ISOLATION=1 (a CI machine that must have them: then the first test fails).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import dgram from 'node:dgram';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUEST_DIR, exitOf, isolation, kernelLimits, spawnChild } from '../../grader/hosts/node/spawn.mjs';
import { guestBundle } from '../../grader/hosts/node/guest-bundle.mjs';
import { TRACKS } from '../../grader/tracks/index.mjs';
import { LIMITS } from '../../grader/limits.mjs';
import { cliWith } from './cli.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = fileURLToPath(new URL('../fixtures/isolation/probe.mjs', import.meta.url));
const MEMORY_MB = LIMITS.memoryMb;
const iso = isolation();
const needs = iso.on ? {} : { skip: `no OS isolation here: ${iso.reason}` };

/** One probe run: `request` sent on stdin, its answer read from fd 3 → { answer, code, signal, stderr }. */
function probe(request, options = {}) {
  const proc = spawnChild(MEMORY_MB, { script: PROBE, permission: false, ...options });
  let out = '',
    err = '';
  proc.stdio[3].on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  proc.stdin.on('error', () => {});
  proc.stdin.end(JSON.stringify(request) + '\n');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 300000); // a guard against a hang, never a judge of speed
  return new Promise((resolve) =>
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').at(-1);
      let answer = null;
      try {
        answer = JSON.parse(line);
      } catch {
        /* none */
      }
      resolve({ answer, ...exitOf(proc, code, signal), stderr: err.slice(0, 2000) });
    }),
  );
}

test('the probe says the mechanism: bubblewrap where this kernel allows namespaces (required with ATTNLAB_REQUIRE_ISOLATION=1, for a machine that must have them)', () => {
  if (process.env.ATTNLAB_REQUIRE_ISOLATION === '1') assert.equal(iso.on, true, `no OS isolation: ${iso.reason}`);
  if (iso.on) assert.equal(iso.mechanism, 'bubblewrap');
  else assert.match(iso.reason, /\S/);
});

test(
  "a grader installed below /tmp: its child file is bound into the sandbox's own /tmp, not hidden by it",
  needs,
  async () => {
    const dir = mkdtempSync(join('/tmp', 'attnlab-iso-tree-'));
    chmodSync(dir, 0o755); // bwrap runs as nobody when the grader is root
    const script = join(dir, 'probe.mjs');
    copyFileSync(PROBE, script);
    const { answer, stderr } = await probe({ check: 'self' }, { script });
    rmSync(dir, { recursive: true, force: true });
    assert.ok(answer?.result, `no answer from ${script}: ${stderr}`);
    assert.equal(answer.result.uid, 65534);
  },
);

test(
  'network: no connection to a TCP listener on 127.0.0.1, no UDP datagram arrives, no name resolved, no interface but its own loopback (with and without the permission model)',
  needs,
  async () => {
    let connections = 0,
      datagrams = 0;
    const server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const udp = dgram.createSocket('udp4');
    udp.on('message', () => datagrams++);
    await new Promise((r) => udp.bind(0, '127.0.0.1', r));
    try {
      const request = { check: 'network', tcpPort: server.address().port, udpPort: udp.address().port };
      for (const permission of [false, true]) {
        const { answer, stderr } = await probe(request, { permission });
        assert.ok(answer?.result, `permission ${permission}: no answer (${stderr})`);
        const r = answer.result;
        assert.equal(r.tcp.ok, false, `permission ${permission}: TCP ${JSON.stringify(r.tcp)}`);
        assert.match(r.tcp.code, /ENETUNREACH|ECONNREFUSED|EACCES/);
        assert.equal(r.lookup.ok, false, `permission ${permission}: lookup ${JSON.stringify(r.lookup)}`);
        assert.equal(r.resolve.ok, false, `permission ${permission}: resolve ${JSON.stringify(r.resolve)}`);
        // bwrap brings up the namespace's own loopback (no other interface): a datagram to 127.0.0.1 is
        // sent there, and arrives nowhere outside (counted below)
        assert.ok(
          r.interfaces.every((i) => i === 'lo'),
          r.interfaces.join(' '),
        );
      }
      await new Promise((r) => setTimeout(r, 200)); // a datagram in flight would have arrived
      assert.equal(connections, 0);
      assert.equal(datagrams, 0);
    } finally {
      server.close();
      udp.close();
    }
  },
);

test(
  'files: only the Node binary, its libraries, prlimit, the script and the guests’ folder are there to read; /etc, the rest of the repository (the reference’s answers on disk included) and the parent’s /proc are not',
  needs,
  async () => {
    const guests = [];
    for (const t of Object.values(TRACKS)) {
      const { script, wasm } = await guestBundle(t);
      guests.push(script.file, ...(wasm ? [wasm.file] : []));
    }
    const hidden = [
      '/etc/passwd',
      '/etc/hostname',
      join(ROOT, 'README.md'),
      join(ROOT, 'grader', 'hosts', 'node', 'sandbox.mjs'),
      join(ROOT, 'grader', 'dist', 'isolation.json'),
      join(ROOT, 'grader', 'dist', 'refs'),
      join(ROOT, 'exercises', 'sdpa', 'solution.js'),
      `/proc/${process.pid}/cmdline`,
      `/proc/${process.pid}/environ`,
      '/root/.bash_history',
    ];
    const { answer, stderr } = await probe({ check: 'read', paths: [...hidden, PROBE, process.execPath, ...guests] });
    assert.ok(answer?.result, stderr);
    for (const p of hidden) assert.deepEqual(answer.result[p], { ok: false, code: 'ENOENT' }, p);
    for (const p of [PROBE, process.execPath, ...guests]) assert.equal(answer.result[p].ok, true, p);
    assert.ok(guests.every((f) => f.startsWith(GUEST_DIR)));
  },
);

test(
  'writes: nothing outside /tmp (read-only), a file in /tmp at most RLIMIT_FSIZE, /tmp itself a small tmpfs',
  needs,
  async () => {
    const limits = kernelLimits(MEMORY_MB);
    const { answer, stderr } = await probe({ check: 'write', over: limits.fsize + 1 });
    assert.ok(answer?.result, stderr);
    const r = answer.result;
    for (const [p, res] of Object.entries(r.outside))
      assert.ok(!res.ok && /EROFS|EACCES|ENOENT|EPERM/.test(res.code), `${p}: ${JSON.stringify(res)}`);
    assert.equal(r.small.ok, true, JSON.stringify(r.small));
    assert.deepEqual(r.big, { ok: false, code: 'EFBIG' });
    assert.equal(r.full, 'ENOSPC');
    assert.ok(r.filled <= 2 ** 20, `${r.filled} bytes written to /tmp`);
  },
);

test(
  'processes: the uid’s tasks in its own user namespace are capped (RLIMIT_NPROC), so a few Node processes and no more start',
  needs,
  async () => {
    const { answer, stderr } = await probe({ check: 'processes', most: 40 });
    assert.ok(answer?.result, stderr);
    // refused at fork (EAGAIN), or a process that started but could not make its threads ended before its script ran
    assert.ok(['EAGAIN', 'EXITED'].includes(answer.result.failed), JSON.stringify(answer.result));
    assert.ok(answer.result.started < kernelLimits(MEMORY_MB).nproc / 4, JSON.stringify(answer.result));
    assert.ok(answer.result.started >= 1, `not even one process started: ${JSON.stringify(answer.result)}`);
  },
);

test(
  'memory: the kernel refuses private memory past RLIMIT_DATA, while WebAssembly (which reserves far more address space) still works',
  needs,
  async () => {
    const limit = kernelLimits(MEMORY_MB).data;
    const { answer, stderr } = await probe({ check: 'memory', most: (2 * limit) / 2 ** 20 });
    assert.ok(answer?.result, stderr);
    const { mib, failed } = answer.result;
    assert.ok(failed, `never refused: ${mib} MiB`);
    assert.ok(mib * 2 ** 20 <= limit, `${mib} MiB taken, limit ${limit / 2 ** 20} MiB`);
    assert.ok(mib >= MEMORY_MB, `refused at ${mib} MiB, below the budget`);
    const wasm = await probe({ check: 'wasm' });
    assert.deepEqual(wasm.answer?.result, { bytes: 1024 * 65536 }, wasm.stderr);
  },
);

test('CPU: the kernel ends a process past RLIMIT_CPU (here 1 s), whatever the grader does', needs, async () => {
  const { code, signal, answer } = await probe({ check: 'spin' }, { limits: { ...kernelLimits(MEMORY_MB), cpu: 1 } });
  assert.equal(answer, null);
  assert.equal(code, null);
  assert.match(signal, /SIGXCPU|SIGKILL/);
});

test(
  'pid namespace, uid, privileges, environment, limits: the probe is pid 2 of its own namespace (bwrap’s reaper is 1), nobody, no capabilities, no new privileges',
  needs,
  async () => {
    const { answer, stderr } = await probe({ check: 'self' });
    assert.ok(answer?.result, stderr);
    const r = answer.result,
      limits = kernelLimits(MEMORY_MB);
    assert.deepEqual(r.pids, ['1', '2']);
    assert.equal(r.pid, 2);
    assert.equal(r.uid, 65534);
    assert.equal(r.noNewPrivs, '1');
    assert.equal(r.capEff, '0000000000000000');
    assert.deepEqual(
      r.env.filter((k) => k !== 'PWD'),
      [],
    ); // bwrap sets PWD=/ after --clearenv
    for (const d of ['dev', 'proc', 'tmp']) assert.ok(r.root.includes(d), r.root.join(' '));
    for (const d of ['etc', 'home', 'root', 'var', 'run', 'sys']) assert.ok(!r.root.includes(d), r.root.join(' '));
    const row = (name) => new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(r.limits)?.slice(1);
    assert.deepEqual(row('Max data size'), [String(limits.data), String(limits.data)]);
    assert.deepEqual(row('Max cpu time'), [String(limits.cpu), String(limits.cpu)]);
    assert.deepEqual(row('Max open files'), [String(limits.nofile), String(limits.nofile)]);
    assert.deepEqual(row('Max file size'), [String(limits.fsize), String(limits.fsize)]);
    assert.deepEqual(row('Max processes'), [String(limits.nproc), String(limits.nproc)]);
    assert.deepEqual(row('Max core file size'), ['0', '0']);
  },
);

test(
  'the child dies with its parent: a grader killed with SIGKILL leaves no sandbox process behind',
  needs,
  async () => {
    // A parent of our own (this file as a script would be the test runner's child: a small module instead).
    const dir = mkdtempSync(join(tmpdir(), 'attnlab-iso-'));
    const parentJs = join(dir, 'parent.mjs');
    writeFileSync(
      parentJs,
      `import { spawnChild, nodePid } from ${JSON.stringify(join(ROOT, 'grader/hosts/node/spawn.mjs'))};
const p = spawnChild(${MEMORY_MB}, { script: ${JSON.stringify(PROBE)}, permission: false });
p.stdin.write('{"check":"wait"}\\n');
p.stdio[3].once('data', async () => console.log(await nodePid(p)));
`,
    );
    const parent = spawn(process.execPath, [parentJs], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise((resolve) => {
      let text = '';
      parent.stdout.on('data', (d) => {
        text += d;
        if (text.includes('\n')) resolve(Number(text.trim()));
      });
      setTimeout(() => resolve(null), 120000);
    });
    assert.ok(Number.isInteger(pid) && pid > 0, `no pid from the parent: ${pid}`);
    const alive = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    assert.ok(alive(), 'the probe is not running');
    parent.kill('SIGKILL');
    const until = Date.now() + 60000;
    while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(), false, `pid ${pid} outlived its parent`);
  },
);

test(
  'the sandbox child itself runs inside: its Node process is not the spawned one, and grading works through it',
  needs,
  async () => {
    const { NodeSandbox } = await import('../../grader/hosts/node/sandbox.mjs');
    const s = await NodeSandbox.create();
    try {
      const load = await s.load('function f(x) { return x + 1; }', { functions: ['f'] });
      assert.equal(load.ok, true);
      const r = await s.call('f', [41]);
      assert.deepEqual([r.ok, r.value], [true, 42]);
      const pid = s.child.pid;
      assert.notEqual(pid, s.child.proc.pid); // bwrap's, not Node's
      assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /child\.cjs/);
      assert.equal(readFileSync(`/proc/${s.child.proc.pid}/comm`, 'utf8').trim(), 'bwrap');
    } finally {
      await s.close();
    }
  },
);

test(
  "a fork server's copy (grader/hosts/node/zygote.mjs) is inside the same boundary, with the same limits, as a child started from nothing",
  needs,
  async (t) => {
    const { forking } = await import('../../grader/hosts/node/zygote.mjs');
    if (!forking().on) return t.skip(`no fork server here: ${forking().reason}`);
    const { NodeSandbox } = await import('../../grader/hosts/node/sandbox.mjs');
    const s = await NodeSandbox.create({ forked: true });
    try {
      assert.equal(s.child.proc.forked, true);
      const load = await s.load('function f(x) { return x + 1; }', { functions: ['f'] });
      assert.equal(load.ok, true);
      assert.deepEqual((await s.call('f', [41])).value, 42);
      const pid = s.child.pid;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1].trim();
      assert.equal(field('NSpid').split(/\s+/).length, 2, 'in a pid namespace of its own');
      assert.equal(field('NoNewPrivs'), '1');
      assert.equal(field('CapEff'), '0000000000000000');
      for (const ns of ['net', 'mnt', 'pid', 'user', 'ipc'])
        assert.notEqual(
          readlinkSync(`/proc/${pid}/ns/${ns}`),
          readlinkSync(`/proc/self/ns/${ns}`),
          `${ns}: a namespace of the boundary's, not the grader's`,
        );
      const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
      const want = kernelLimits(MEMORY_MB);
      assert.match(limits, new RegExp(`Max data size\\s+${want.data}\\s`));
      assert.match(limits, new RegExp(`Max processes\\s+${want.nproc}\\s`));
      assert.match(limits, new RegExp(`Max open files\\s+${want.nofile}\\s`));
      assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /--experimental-permission|--permission/);
    } finally {
      await s.close();
    }
  },
);

test('without namespaces (ATTNLAB_ISOLATION=off): the plain child grades, --verbose says so, --require-isolation refuses with exit 2, run.json records it', async () => {
  const off = { ATTNLAB_ISOLATION: 'off' };
  const solution = join(ROOT, 'exercises', 'sdpa', 'solution.js');
  let r = cliWith({ env: off }, 'grade', solution, '--verbose', '--lang', 'en');
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stderr,
    /sandbox without OS isolation \(ATTNLAB_ISOLATION=off\): student code runs in a plain child process/,
  );
  r = cliWith({ env: off }, 'grade', solution, '--require-isolation', '--lang', 'en');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /--require-isolation refuses to grade without it/);
  r = cliWith({ env: off }, 'grade', solution, '--require-isolation');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /с --require-isolation проверка без изоляции не запускается/);
  const dir = mkdtempSync(join(tmpdir(), 'attnlab-iso-batch-'));
  copyFileSync(solution, join(dir, 'alice.js'));
  r = cliWith({ env: off }, 'grade-batch', dir, '--exercise', 'sdpa', '--out', join(dir, 'out'), '--require-isolation');
  assert.equal(r.status, 2);
  assert.equal(existsSync(join(dir, 'out', 'run.json')), false);
  r = cliWith({ env: off }, 'grade-batch', dir, '--exercise', 'sdpa', '--out', join(dir, 'out'), '--lang', 'en');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /sandbox without OS isolation/);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'out', 'run.json'), 'utf8')).isolation, {
    on: false,
    reason: 'ATTNLAB_ISOLATION=off',
  });
  if (!iso.on) return;
  r = cliWith({}, 'grade', solution, '--verbose', '--require-isolation', '--lang', 'en');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /sandbox: bubblewrap/);
  r = cliWith(
    {},
    'grade-batch',
    dir,
    '--exercise',
    'sdpa',
    '--out',
    join(dir, 'out'),
    '--force',
    '--require-isolation',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'out', 'run.json'), 'utf8')).isolation, {
    on: true,
    mechanism: 'bubblewrap',
  });
});

// The probe's yes kept for later processes (spawn.mjs PROBE_CACHE): each case is a fresh Node process
// with its own kept file (ATTNLAB_ISOLATION_CACHE), which prints isolation() and the argv a child would
// get. A kept file's `binds` are bound into every child, so an extra one (MARK) shows the kept yes was
// used, and its absence that the process probed.
const MARK = fileURLToPath(new URL('../fixtures/isolation/probe.mjs', import.meta.url));
function fresh(cacheFile, code = '') {
  const script = `
    import { isolation, isolatedArgv, kernelLimits, startFailed } from ${JSON.stringify(new URL('../../grader/hosts/node/spawn.mjs', import.meta.url).href)};
    const iso = isolation();
    const argv = iso.on ? isolatedArgv(['/bin/true'], { limits: kernelLimits(64) }) : [];
    ${code}
    process.stdout.write(JSON.stringify({ iso, marked: argv.includes(${JSON.stringify(MARK)}) }));`;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ATTNLAB_ISOLATION_CACHE: cacheFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}`))));
    p.on('error', reject);
  });
}

test(
  "a probe's yes is kept for the next process and used while its key holds; another key, a malformed file or a failed start makes the next process probe again",
  needs,
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attnlab-isocache-'));
    try {
      const file = join(dir, 'isolation.json');
      const first = await fresh(file);
      assert.deepEqual(first.iso, { on: true, mechanism: 'bubblewrap' });
      const kept = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(typeof kept.key, 'string');
      assert.ok(kept.binds.includes(realpathSync(process.execPath)), 'the Node binary among the kept binds');
      assert.equal(first.marked, false);

      // Used: a bind added to the kept file reaches the argv, and no probe rewrote the file.
      writeFileSync(file, JSON.stringify({ ...kept, binds: [...kept.binds, MARK] }));
      const used = await fresh(file);
      assert.deepEqual(used.iso, { on: true, mechanism: 'bubblewrap' }, 'the same answer, without its probe');
      assert.equal(used.marked, true);

      // Another key (another boot, say): probed again, and the file rewritten with this machine's key.
      writeFileSync(
        file,
        JSON.stringify({ key: kept.key.replace(/^\[1,/, '[1,"another boot",'), binds: [...kept.binds, MARK] }),
      );
      const other = await fresh(file);
      assert.equal(other.marked, false);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).key, kept.key);

      // Malformed, binds that are not absolute paths, or one no longer there: ignored, probed again.
      for (const text of [
        '{not json',
        JSON.stringify({ key: kept.key, binds: ['relative/path', MARK] }),
        JSON.stringify({ key: kept.key, binds: [...kept.binds, MARK, join(dir, 'gone.so')] }),
      ]) {
        writeFileSync(file, text);
        const again = await fresh(file);
        assert.deepEqual(again.iso, { on: true, mechanism: 'bubblewrap' });
        assert.equal(again.marked, false);
      }

      // A child that ended before it was ready while the yes was kept: the file is gone.
      writeFileSync(file, JSON.stringify(kept));
      await fresh(file, 'startFailed();');
      assert.equal(existsSync(file), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
