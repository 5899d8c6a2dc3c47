#!/usr/bin/env node
// One submission folder as a grading platform hands it over, graded into the platform's results.json:
//   node grader/batch/platform.mjs gradescope <slug> <submission dir> <results.json> [--lang ru|en]
//   node grader/batch/platform.mjs exercism   <slug> <solution dir>   <results.json> [--lang ru|en]
// Behind tools/gradescope/run_autograder (Gradescope: /autograder/submission → /autograder/results/results.json)
// and bin/run.sh (Exercism's test-runner interface). The submission is picked in the folder as for a
// student's folder of a batch (grader/batch/README.md; Exercism's .meta/config.json `files.solution`
// first, when it names one), and graded by gradeBatch like any other: its own child, the same reports.
// A results.json is always written (a platform shows it to the student); when grading cannot happen
// (an unknown exercise, a broken pack, a grader fault) it says so, status error / score 0. Exit code 0
// once results.json is written, 2 for bad arguments.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadExercise } from '../hosts/node/exercise.mjs';
import { gradeBatch } from './run.mjs';
import { submissionIn } from './inputs.mjs';

const USAGE =
  'usage: node grader/batch/platform.mjs gradescope|exercism <slug> <submission dir> <results.json> [--lang ru|en]';

function failed(platform, message) {
  return platform === 'exercism'
    ? { version: 3, status: 'error', message, tests: [] }
    : { score: 0, output: message, visibility: 'visible', stdout_visibility: 'visible', tests: [] };
}

/** Exercism names the solution's files in .meta/config.json (`files.solution`); the first of them that exists, else null. */
function exercismSolution(dir) {
  try {
    const config = JSON.parse(readFileSync(join(dir, '.meta', 'config.json'), 'utf8'));
    for (const f of config?.files?.solution ?? []) {
      if (typeof f === 'string' && !f.split(/[\\/]/).includes('..') && existsSync(join(dir, f))) return f;
    }
  } catch {
    /* no config: pick as for a student's folder */
  }
  return null;
}

async function main(argv) {
  const lang = argv.includes('--lang') ? argv[argv.indexOf('--lang') + 1] : 'ru';
  const args = argv.filter((a, i) => a !== '--lang' && argv[i - 1] !== '--lang');
  const [platform, slug, dir, results] = args;
  if (args.length !== 4 || !['gradescope', 'exercism'].includes(platform) || !['ru', 'en'].includes(lang)) {
    console.error(`attnlab: ${USAGE}`);
    return 2;
  }
  const en = lang === 'en';
  mkdirSync(dirname(results), { recursive: true });
  const write = (doc) => writeFileSync(results, JSON.stringify(doc, null, 2) + '\n');
  let exercise;
  try {
    exercise = await loadExercise(slug);
  } catch (e) {
    write(
      failed(
        platform,
        (en ? 'This exercise cannot be graded here: ' : 'Это упражнение здесь не проверить: ') + e.message,
      ),
    );
    return 0;
  }
  let sub;
  try {
    const named = platform === 'exercism' ? exercismSolution(dir) : null;
    sub = submissionIn(dir, named, exercise);
  } catch (e) {
    write(
      failed(platform, (en ? 'The submission folder cannot be read: ' : 'Папку с решением не прочитать: ') + e.message),
    );
    return 0;
  }
  const out = mkdtempSync(join(tmpdir(), 'attnlab-platform-'));
  try {
    await gradeBatch({
      submissions: [{ student: 'submission', key: 'submission', ...sub }],
      exercise,
      out,
      jobs: 1,
      lang,
    });
    writeFileSync(results, readFileSync(join(out, platform, 'submission', 'results.json')));
  } catch (e) {
    write(
      failed(
        platform,
        (en ? 'Grader fault (not a fault of your code): ' : 'Сбой проверяющей программы (не вашего кода): ') +
          String(e?.message ?? e).slice(0, 500),
      ),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(`attnlab: internal error: ${e && e.stack ? e.stack : e}`);
    process.exitCode = 2;
  },
);
