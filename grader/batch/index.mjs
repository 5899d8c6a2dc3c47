// grade-batch and grade-batch merge (grader/batch/README.md): the run around run.mjs's gradeBatch —
// the --out folder's state (run.json), the progress on stderr, and what is written at the end
// (summary.json, summary.csv, gradebook.csv, report.html) from the records, for one run or merged shards.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadExercise } from '../hosts/node/exercise.mjs';
import { gradeBatch, packVersion, writeAtomic } from './run.mjs';
import { summarize, summaryCsv, gradebookCsv, regradeDiff, textSummary } from './summary.mjs';
import { similarPairs } from './similarity.mjs';
import { reportHtml } from './report.mjs';
import { visible } from '../wire/text.mjs';
import { classHash, shardName } from './shard.mjs';

export class BatchError extends Error {}

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** Progress on `stream`: a bar redrawn in place on a terminal (done/total, rate, ETA, not passed so far), else one line per submission. */
export function progress(stream, { lang = 'ru' } = {}) {
  const en = lang === 'en',
    tty = Boolean(stream.isTTY);
  let total = 0,
    start = 0,
    startDone = 0,
    notPassed = 0,
    last = 0;
  const clock = (s) =>
    Number.isFinite(s) ? `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}` : '?';
  return {
    onStart({ total: t, reused }) {
      total = t;
      startDone = reused;
      start = performance.now();
      stream.write(
        en
          ? `grading ${t - reused} of ${t} submissions (${reused} already graded)\n`
          : `проверяю ${t - reused} из ${t} работ (${reused} уже проверены)\n`,
      );
    },
    onDone({ record, done }) {
      if (record.report.status !== 'pass') notPassed++;
      const secs = (performance.now() - start) / 1000,
        rate = (done - startDone) / Math.max(secs, 1e-3);
      if (!tty) {
        stream.write(
          `${done}/${total} ${record.key} ${record.report.passed}/${record.report.total} ${record.report.status} ${record.ms} ms\n`,
        );
        return;
      }
      const now = performance.now();
      if (done < total && now - last < 100) return;
      last = now;
      const width = 30,
        filled = Math.round((width * done) / Math.max(total, 1));
      const eta = rate > 0 ? (total - done) / rate : NaN;
      stream.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}  ${rate.toFixed(1)}/s  ETA ${clock(eta)}  ${en ? 'not passed' : 'не прошли'} ${notPassed}\x1b[K`,
      );
      if (done === total) stream.write('\n');
    },
  };
}

/** Everything written from the records: summary.json, summary.csv, gradebook.csv, report.html; → the text summary. */
export function writeOutputs(out, records, exercise, version, lang) {
  const summary = summarize(records, exercise, { version });
  const prev = readJson(join(out, 'previous', 'summary.json'));
  const regrade =
    prev && prev.exercise === summary.exercise && prev.pack_version !== version ? regradeDiff(prev, summary) : null;
  if (regrade) summary.regrade = regrade;
  const starters = Object.fromEntries(Object.entries(exercise.files).map(([t, f]) => [t, f.starter]));
  const subs = records
    .filter((r) => typeof r.source === 'string')
    .map((r) => ({ student: r.student, track: r.track, source: r.source }));
  const similar = similarPairs(subs, starters);
  summary.similar = similar.map(({ a, b, score, shared }) => ({
    a,
    b,
    score: Math.round(score * 1000) / 1000,
    shared,
  }));
  writeAtomic(join(out, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  writeAtomic(join(out, 'summary.csv'), summaryCsv(summary));
  writeAtomic(join(out, 'gradebook.csv'), gradebookCsv([summary]));
  const sources = Object.fromEntries(subs.map((s) => [s.student, s.source]));
  writeAtomic(join(out, 'report.html'), reportHtml({ summary, records, similar, sources, regrade, lang }));
  return textSummary(summary, records, {
    lang,
    similar,
    regrade,
    paths: { 'report.html': join(out, 'report.html'), 'summary.csv': join(out, 'summary.csv') },
  });
}

/**
 * The --out folder's state: run.json names the exercise and pack version of the run it holds. A run of
 * another exercise is refused; one of another pack version keeps its summary in previous/ for the regrade diff.
 */
function claimOut(out, { exercise, version, lang }) {
  try {
    mkdirSync(out, { recursive: true });
  } catch (e) {
    throw new BatchError(
      lang === 'en'
        ? `cannot create the --out folder ${out}: ${e.code ?? e.message}`
        : `не создать папку --out ${out}: ${e.code ?? e.message}`,
    );
  }
  const run = readJson(join(out, 'run.json'));
  if (run && run.exercise !== exercise) {
    throw new BatchError(
      lang === 'en'
        ? `--out ${out} holds a run of the exercise "${run.exercise}", not "${exercise}": choose another folder`
        : `в --out ${out} лежит проверка упражнения «${run.exercise}», а не «${exercise}»: выберите другую папку`,
    );
  }
  if (run && run.pack_version !== version && existsSync(join(out, 'summary.json'))) {
    mkdirSync(join(out, 'previous'), { recursive: true });
    copyFileSync(join(out, 'summary.json'), join(out, 'previous', 'summary.json'));
  }
  writeAtomic(join(out, 'run.json'), JSON.stringify({ exercise, pack_version: version }) + '\n');
}

/** run.json with `fields` added (claimOut wrote the exercise and pack version). */
function writeRun(out, fields) {
  writeAtomic(join(out, 'run.json'), JSON.stringify({ ...readJson(join(out, 'run.json')), ...fields }) + '\n');
}

/** `grade-batch`: → exit code (0 done, 130 interrupted). `opts` as cli.mjs parses them. */
export async function runBatch(opts, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const exercise = await loadExercise(opts.exercise);
  const version = packVersion(exercise);
  claimOut(opts.out, { exercise: exercise.spec.slug, version, lang: opts.lang });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let result;
  try {
    result = await gradeBatch({
      ...opts,
      exercise,
      signal: controller.signal,
      ...progress(stderr, { lang: opts.lang }),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const en = opts.lang === 'en';
  // The manifest: which share of which class this folder holds, and what the input held.
  writeRun(opts.out, {
    shard: shardName(opts.shard ?? { index: 1, count: 1 }),
    class_hash: classHash(result.submissions),
    inputs: result.inputs,
  });
  const { escaped_names: escaped, duplicates, refused } = result.inputs;
  if (escaped || duplicates || refused)
    stderr.write(
      en
        ? `names shown escaped (not UTF-8, or with control characters): ${escaped}; zip entries repeating a name, each graded as a row of its own: ${duplicates}; files refused: ${refused} (run.json)\n`
        : `имён показано с экранированием (не UTF-8 или с управляющими символами): ${escaped}; записей zip с повторённым именем, каждая проверена отдельной строкой: ${duplicates}; отклонено файлов: ${refused} (run.json)\n`,
    );
  if (result.refusedFiles.length)
    stderr.write(
      `${en ? 'refused' : 'отклонены'}: ${visible(result.refusedFiles.slice(0, 10).join(', '))}${result.refusedFiles.length > 10 ? ' …' : ''}\n`,
    );
  if (result.aborted) {
    stderr.write(
      en
        ? `\ninterrupted: ${result.records.length} of ${result.total} graded and kept; run the same command again to grade the rest\n`
        : `\nпрервано: проверено и сохранено ${result.records.length} из ${result.total}; запустите ту же команду снова, чтобы проверить остальные\n`,
    );
    return 130;
  }
  if (result.skipped.length)
    stderr.write(
      `${en ? 'skipped (not .js or .py)' : 'пропущены (не .js и не .py)'}: ${visible(result.skipped.slice(0, 10).join(', '))}${result.skipped.length > 10 ? ' …' : ''}\n`,
    );
  stdout.write(writeOutputs(opts.out, result.records, exercise, version, opts.lang) + '\n');
  return 0;
}

/**
 * `grade-batch merge <dirs…> --out <dir>`: the records of shard outputs of one exercise and pack
 * version, copied into one folder with one summary and report (as one run over all of them writes).
 */
export async function mergeBatch({ dirs, out, lang = 'ru' }, { stdout = process.stdout } = {}) {
  const en = lang === 'en';
  const runs = dirs.map((d) => {
    const run = readJson(join(d, 'run.json')),
      summary = readJson(join(d, 'summary.json'));
    if (!run || !summary)
      throw new BatchError(
        en
          ? `${d} is not a finished grade-batch output (no run.json or summary.json)`
          : `${d} — не законченный вывод grade-batch (нет run.json или summary.json)`,
      );
    return { dir: d, run, summary };
  });
  const first = runs[0].run;
  for (const r of runs) {
    if (r.run.exercise !== first.exercise || r.run.pack_version !== first.pack_version) {
      throw new BatchError(
        en
          ? `${r.dir} holds ${r.run.exercise} at pack version ${r.run.pack_version}, ${runs[0].dir} ${first.exercise} at ${first.pack_version}: only shards of one run merge`
          : `в ${r.dir} — ${r.run.exercise} версии ${r.run.pack_version}, в ${runs[0].dir} — ${first.exercise} версии ${first.pack_version}: объединяются только части одной проверки`,
      );
    }
  }
  const exercise = await loadExercise(first.exercise);
  const version = packVersion(exercise);
  if (version !== first.pack_version) {
    throw new BatchError(
      en
        ? `the shards were graded with pack version ${first.pack_version}, this tree has ${version}`
        : `части проверены версией пакета ${first.pack_version}, а здесь версия ${version}`,
    );
  }
  claimOut(out, { exercise: first.exercise, version, lang });
  const records = new Map();
  for (const { dir, summary } of runs)
    for (const s of summary.students) {
      const rec = readJson(join(dir, 'records', `${s.key}.json`));
      if (!rec)
        throw new BatchError(
          en ? `${dir}: the record of ${s.student} is missing` : `${dir}: нет записи о ${s.student}`,
        );
      const seen = records.get(rec.key);
      if (seen && seen.hash !== rec.hash)
        throw new BatchError(
          en
            ? `${s.student} is in two shards with different files`
            : `${s.student} есть в двух частях с разными файлами`,
        );
      records.set(rec.key, rec);
      for (const kind of ['exercism', 'gradescope']) {
        mkdirSync(join(out, kind, rec.key), { recursive: true });
        copyFileSync(join(dir, kind, rec.key, 'results.json'), join(out, kind, rec.key, 'results.json'));
      }
      mkdirSync(join(out, 'records'), { recursive: true });
      writeFileSync(join(out, 'records', `${rec.key}.json`), JSON.stringify(rec) + '\n');
    }
  const all = [...records.values()].sort((a, b) => (a.student < b.student ? -1 : a.student > b.student ? 1 : 0));
  stdout.write(writeOutputs(out, all, exercise, version, lang ?? all[0]?.lang) + '\n');
  return 0;
}

/** `grade-batch gradebook <out dirs…> --out <file.csv>`: one gradebook with a column per exercise. */
export function gradebookOf({ dirs, out, lang = 'ru' }) {
  const summaries = dirs.map((d) => {
    const s = readJson(join(d, 'summary.json'));
    if (!s) throw new BatchError(lang === 'en' ? `${d} has no summary.json` : `в ${d} нет summary.json`);
    return s;
  });
  writeAtomic(out, gradebookCsv(summaries));
  return 0;
}
