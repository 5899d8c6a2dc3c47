#!/usr/bin/env node
// attnlab grader CLI: `node grader/cli.mjs --help` (cli-text.mjs) and README.md say what it does; the
// commands are in cli-main.mjs. When the arguments look like one grade, this entry first starts the
// sandbox for the track they ask for (tracks/table.mjs trackFor, the rule cli-main.mjs follows, read from
// the tracks' descriptions: no track's code is loaded here): its child process at once
// (hosts/node/spawn.mjs), its guest as soon as the host is loaded, so that the child's start overlaps
// the grader's own imports. cli-main.mjs uses that sandbox if its reading of the arguments agrees, and
// closes it otherwise; a child no sandbox took is killed at the end.
import { parseArgs } from 'node:util';
import { prespawn, discardPrespawned } from './hosts/node/spawn.mjs';

const argv = process.argv.slice(2);
let early = null;
if (argv[0] === 'grade' && !argv.includes('-h') && !argv.includes('--help')) {
  prespawn();
  const [{ NodeSandbox }, { catalog }, { GRADE_OPTIONS }] = await Promise.all([
    import('./hosts/node/sandbox.mjs'),
    import('./tracks/catalog.mjs'),
    import('./cli-text.mjs'),
  ]);
  // Leniently: arguments cli-main.mjs refuses only cost a child (a wrong guess, or none).
  const { values, positionals } = parseArgs({
    args: argv,
    options: GRADE_OPTIONS,
    strict: false,
    allowPositionals: true,
  });
  const track = catalog.trackFor({ track: values.track, file: positionals[1] });
  if (track) early = { track, sandbox: NodeSandbox.create({ track }) };
}
const { main } = await import('./cli-main.mjs');
main(argv, early)
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.error(`attnlab: internal error: ${e && e.stack ? e.stack : e}`);
      process.exitCode = 2;
    },
  )
  .finally(discardPrespawned);
