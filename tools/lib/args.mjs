// The tools' command lines: node:util's parseArgs, with what a person at a terminal expects around it.
// `--help` / `-h` prints the tool's usage and exits 0; an unknown option, a missing value or an
// unexpected argument prints "tools/<tool>: <what was wrong>" and the usage on stderr and exits 2 (never a
// stack trace); `check(cond, message)` does the same for a value the tool itself refuses, and
// `count(name, min = 1)` gives an option's value as an integer of at least `min`, or refuses it.
// A part of the build the tool needs that is missing (loadCore's NOT_BUILT: a checkout that tools/grade
// set up has one WebAssembly flavour) ends it with "tools/<tool>: <what to build>" and exit 1, not a
// stack trace; any other uncaught error is the tool's own fault and keeps its stack.
//   const { values, positionals, check, count } = toolArgs('sandbox-cost', USAGE, { rounds: { type: 'string' } });
//   const rounds = count('rounds');
import { parseArgs } from 'node:util';
import { NOT_BUILT } from '../../wasm/index.mjs';

/**
 * @param {string} tool its name, as the messages start
 * @param {string} usage one line or more: `usage: tools/<tool> …`
 * @param {Record<string, import('node:util').ParseArgsOptionConfig>} options
 * @param {{ args?: string[], positionals?: boolean }} [more] args: process.argv.slice(2) by default;
 *   positionals: whether arguments that are not options are taken (default false)
 */
export function toolArgs(tool, usage, options, { args = process.argv.slice(2), positionals = false } = {}) {
  const refuse = (message) => {
    console.error(`tools/${tool}: ${message}\n${usage}`);
    process.exit(2);
  };
  process.on('uncaughtException', (e) => {
    console.error(e?.code === NOT_BUILT ? `tools/${tool}: ${e.message.replace(/^loadCore: /, '')}` : (e?.stack ?? e));
    process.exit(1);
  });
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals, strict: true });
  } catch (e) {
    refuse(
      String(e.message)
        .split('\n')[0]
        .replace(/\. To specify a positional argument.*/, ''),
    );
  }
  const check = (cond, message) => {
    if (!cond) refuse(message);
  };
  const count = (name, min = 1) => {
    const v = parsed.values[name];
    const n = Number(v);
    check(
      typeof v === 'string' && v.trim() !== '' && Number.isInteger(n) && n >= min,
      `--${name} needs ${min === 1 ? 'a positive integer' : min === 0 ? 'a whole number' : `an integer of at least ${min}`}, got "${v}"`,
    );
    return n;
  };
  return { values: parsed.values, positionals: parsed.positionals, check, count };
}
