// The sandbox child's process (./child.mjs) as every Node sandbox starts it, and one started early:
// the CLI asks for it before it loads the grader (`prespawn`), so that Node's own start in the child,
// the largest part of a child's start, overlaps the grader's imports instead of following them. The
// process does not depend on the track (the track's guest arrives later, in its first frame); the first
// sandbox with the same memory limit takes it (`takeChild`), and one never taken is killed
// (`discardPrespawned`) so that it cannot keep the CLI alive.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '../../limits.mjs';

export const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));
// V8's stack for the child, in KiB: about what a Chromium Web Worker gets (measured: 6,352 frames of
// a one-line recursion there, 6,3xx here with 455, 13,663 with Node's default), so that recursion or a
// spread of many arguments fails at about the same size in both hosts.
const STACK_KB = 455;
// Node 20-21 spell it --experimental-permission; later versions --permission.
const PERMISSION = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

/** A new child: an empty environment, the permission model (reads only child.mjs), a V8 heap cap. */
export function spawnChild(memoryMb) {
  return spawn(
    process.execPath,
    [
      PERMISSION,
      `--allow-fs-read=${CHILD}`,
      '--no-warnings',
      `--max-old-space-size=${memoryMb}`,
      '--max-semi-space-size=16',
      `--stack-size=${STACK_KB}`,
      '--disallow-code-generation-from-strings',
      CHILD,
    ],
    { env: {}, stdio: ['pipe', 'ignore', 'pipe', 'pipe'], windowsHide: true },
  );
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
