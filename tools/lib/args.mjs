// The tools' command lines: node:util's parseArgs, with what a person at a terminal expects around it.
// `--help` / `-h` prints the tool's usage and exits 0; an unknown option, a missing value or an
// unexpected argument prints "tools/<tool>: <what was wrong>" and the usage on stderr and exits 2 (never a
// stack trace); `check(cond, message)` does the same for a value the tool itself refuses.
//   const { values, positionals, check } = toolArgs('sandbox-cost', USAGE, { rounds: { type: 'string' } });
//   check(Number.isInteger(rounds) && rounds > 0, `--rounds must be a positive integer, got "${values.rounds}"`);
import { parseArgs } from 'node:util';

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
  return {
    values: parsed.values,
    positionals: parsed.positionals,
    check: (cond, message) => {
      if (!cond) refuse(message);
    },
  };
}
