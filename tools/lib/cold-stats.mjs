// Loaded with `node --import` by tools/cold-grade into the process it measures (grader/cli.mjs): at exit it
// writes that process's own CPU time (user + system, every thread, ms) to $ATTNLAB_COLD_STATS/<pid>.cpu, and
// with ATTNLAB_COLD_MODULES=1 it registers a module hook (./cold-stats-hooks.mjs) that writes the URL of
// every module the process loads after it to $ATTNLAB_COLD_STATS/<pid>.modules. Nothing else: the sandbox's
// child processes are started without it.
import { writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';

const dir = process.env.ATTNLAB_COLD_STATS;
if (dir) {
  if (process.env.ATTNLAB_COLD_MODULES === '1') register('./cold-stats-hooks.mjs', import.meta.url);
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(join(dir, `${process.pid}.cpu`), String((user + system) / 1000));
  });
}
