// grade-batch and grade-batch merge (grader/batch/README.md): the run around run.mjs's gradeBatch —
// the --out folder's state (run.json), the progress on stderr, and what is written at the end
// (summary.json, summary.csv, gradebook.csv, report.html) from the records, for one run or merged shards.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadExercise } from '../hosts/node/exercise.mjs';
import { gradeBatch, packVersion } from './run.mjs';
import { writeAtomic } from '../hosts/node/write-atomic.mjs';
import {
  summarize,
  summaryCsv,
  gradebookCsv,
  lmsGradebookCsv,
  regradeDiff,
  textSummary,
  changesSince,
  applyScale,
  totalPoints,
} from './summary.mjs';
import { clustersOf, similarPairs } from './similarity.mjs';
import { reportHtml } from './report.mjs';
import { visible } from '../wire/text.mjs';
import { isolation } from '../hosts/node/spawn.mjs';
import { classHash, parseShard, shardName } from './shard.mjs';
import { applyOverrides, OverrideError, readOverrides } from './overrides.mjs';
import { applyRoster, readRoster, RosterError } from './roster.mjs';
import { applyLate } from './late.mjs';

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

/**
 * The similarity of a class's sources (the starter of each track is no evidence): { similar: similarPairs(),
 * clusters: clustersOf(similar), sources: student → source }. Records without a source are left out.
 */
export function similarityOf(records, exercise) {
  const starters = Object.fromEntries(Object.entries(exercise.files).map(([t, f]) => [t, f.starter]));
  const subs = records
    .filter((r) => typeof r.source === 'string')
    .map((r) => ({ student: r.student, track: r.track, source: r.source }));
  const similar = similarPairs(subs, starters);
  return {
    similar,
    clusters: clustersOf(similar),
    sources: Object.fromEntries(subs.map((x) => [x.student, x.source])),
  };
}

/**
 * Everything written from the records: summary.json, summary.csv, gradebook.csv (and with a roster,
 * gradebook-<lms>.csv), report.html; → the text summary. The teacher's overrides apply before the scale, the
 * late penalty after it (`times`: student → the submission's file time, inputs.mjs).
 */
export function writeOutputs(
  out,
  records,
  exercise,
  version,
  lang,
  { overrides = [], roster = null, scale = null, times = new Map(), due = null, latePolicy = null } = {},
) {
  const summary = applyScale(applyOverrides(summarize(records, exercise, { version }), overrides), scale);
  applyLate(summary, times, { due, policy: latePolicy }); // the penalty on the scaled grade
  if (roster) applyRoster(summary, roster);
  const changes = changesSince(readJson(join(out, 'summary.json')), summary);
  if (changes) summary.changes = changes;
  const prev = readJson(join(out, 'previous', 'summary.json'));
  const regrade =
    prev && prev.exercise === summary.exercise && prev.pack_version !== version ? regradeDiff(prev, summary) : null;
  if (regrade) summary.regrade = regrade;
  const { similar, clusters } = similarityOf(records, exercise);
  const round = (x) => Math.round(x * 1000) / 1000;
  summary.similar = similar.map(({ a, b, kind, score, shared }) => ({ a, b, kind, score: round(score), shared }));
  summary.clusters = clusters.map((c) => ({ ...c, evidence: { ...c.evidence, score: round(c.evidence.score) } }));
  writeAtomic(join(out, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  writeAtomic(join(out, 'summary.csv'), summaryCsv(summary));
  writeAtomic(join(out, 'gradebook.csv'), gradebookCsv([summary]));
  if (roster) writeAtomic(join(out, `gradebook-${roster.format}.csv`), lmsGradebookCsv([summary], roster.format));
  writeAtomic(join(out, 'report.html'), reportHtml({ summary, records, similar, clusters, regrade, exercise, lang }));
  return textSummary(summary, records, {
    lang,
    similar,
    clusters,
    regrade,
    paths: {
      'report.html': join(out, 'report.html'),
      'summary.csv': join(out, 'summary.csv'),
      ...(roster && { [`gradebook-${roster.format}.csv`]: join(out, `gradebook-${roster.format}.csv`) }),
    },
  });
}

/**
 * The --out folder's state: run.json names the exercise and pack version of the run it holds (and
 * whether its children ran inside the OS boundary: `isolation`, hosts/node/spawn.mjs). A run of
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
  writeAtomic(
    join(out, 'run.json'),
    JSON.stringify({ exercise, pack_version: version, isolation: isolation() }) + '\n',
  );
}

/** run.json with `fields` added (claimOut wrote the exercise and pack version). */
function writeRun(out, fields) {
  writeAtomic(join(out, 'run.json'), JSON.stringify({ ...readJson(join(out, 'run.json')), ...fields }) + '\n');
}

/** `grade-batch`: → exit code (0 done, 130 interrupted). `opts` as cli.mjs parses them. */
export async function runBatch(opts, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const exercise = await loadExercise(opts.exercise);
  const version = packVersion(exercise);
  let roster = null; // read before grading: a bad roster is refused before any work
  if (opts.roster) {
    try {
      roster = readRoster(opts.roster, { lang: opts.lang });
    } catch (e) {
      if (e instanceof RosterError) throw new BatchError(e.message);
      throw e;
    }
  }
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
  let overrides = [];
  if (opts.overrides) {
    try {
      overrides = readOverrides(opts.overrides, {
        students: result.records.map((r) => r.student),
        tests: exercise.spec.tests.map((t) => t.id),
        total: totalPoints(exercise.spec),
        lang: opts.lang,
      });
    } catch (e) {
      if (e instanceof OverrideError) throw new BatchError(e.message);
      throw e;
    }
  }
  stdout.write(
    writeOutputs(opts.out, result.records, exercise, version, opts.lang, {
      overrides,
      roster,
      scale: opts.scale ?? null,
      times: new Map(result.submissions.filter((s) => s.mtime).map((s) => [s.student, s.mtime])),
      due: opts.due ?? null,
      latePolicy: opts.latePolicy ?? null,
    }) + '\n',
  );
  return 0;
}

/**
 * `grade-batch merge <dirs…> --out <dir>`: the records of shard outputs of one exercise and pack
 * version, copied into one folder with one summary and report (as one run over all of them writes).
 */
export async function mergeBatch(
  { dirs, out, lang = 'ru', allowPartial = false },
  { stdout = process.stdout, stderr = process.stderr } = {},
) {
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
  const shards = checkShards(runs, { en, allowPartial });
  for (const w of shards.warnings) stderr.write(`${w}\n`);
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
  writeRun(out, {
    shard: shards.missing.length || shards.foreign.length ? null : '1/1',
    class_hash: shards.classHash,
    merged: runs.map((r) => ({ dir: r.dir, shard: r.run.shard ?? null, class_hash: r.run.class_hash ?? null })),
    ...(shards.missing.length && { missing_shards: shards.missing }),
    ...(shards.foreign.length && { foreign_shards: shards.foreign }),
    inputs: shards.inputs,
  });
  stdout.write(writeOutputs(out, all, exercise, version, lang ?? all[0]?.lang) + '\n');
  return 0;
}

/**
 * The shards' manifests (run.json `shard` I/N and `class_hash`) against each other: a shard given twice is
 * refused; one missing, one of another class (or another N), or one without a manifest is refused unless
 * `allowPartial`, and then said in `warnings`. → { classHash, missing: ['2/3'], foreign: [dir], inputs, warnings }
 */
function checkShards(runs, { en, allowPartial }) {
  const problems = [],
    warnings = [];
  const unmarked = runs.filter((r) => !parseShard(r.run.shard ?? '') || !r.run.class_hash);
  for (const r of unmarked)
    problems.push(
      en
        ? `${r.dir} has no shard manifest (its run.json names no shard I/N and class hash: grade it again)`
        : `у ${r.dir} нет описания части (в run.json нет части I/N и хеша группы: проверьте её заново)`,
    );
  const marked = runs.filter((r) => !unmarked.includes(r));
  const base = marked[0];
  const count = base ? parseShard(base.run.shard).count : 0;
  const foreign = [];
  for (const r of marked.slice(1)) {
    const n = parseShard(r.run.shard).count;
    if (r.run.class_hash !== base.run.class_hash) {
      foreign.push(r.dir);
      problems.push(
        en
          ? `${r.dir} is a shard of another class (class hash ${r.run.class_hash}, not ${base.run.class_hash} as in ${base.dir}): the input differs`
          : `${r.dir} — часть другой группы (хеш ${r.run.class_hash}, а не ${base.run.class_hash}, как в ${base.dir}): работы другие`,
      );
    } else if (n !== count) {
      foreign.push(r.dir);
      problems.push(
        en
          ? `${r.dir} is shard ${r.run.shard}, ${base.dir} is one of ${count}: shards of one split merge`
          : `${r.dir} — часть ${r.run.shard}, а ${base.dir} — одна из ${count}: объединяются части одного деления`,
      );
    }
  }
  const mine = marked.filter((r) => !foreign.includes(r.dir));
  const byIndex = new Map();
  for (const r of mine) {
    const { index } = parseShard(r.run.shard);
    if (byIndex.has(index))
      throw new BatchError(
        en
          ? `shard ${r.run.shard} is given twice: ${byIndex.get(index)} and ${r.dir}`
          : `часть ${r.run.shard} указана дважды: ${byIndex.get(index)} и ${r.dir}`,
      );
    byIndex.set(index, r.dir);
  }
  const missing = [];
  for (let i = 1; i <= count; i++) if (!byIndex.has(i)) missing.push(`${i}/${count}`);
  if (missing.length)
    problems.push(
      en
        ? `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of the class ${base.run.class_hash} missing`
        : `нет ${missing.length > 1 ? 'частей' : 'части'} ${missing.join(', ')} группы ${base.run.class_hash}`,
    );
  if (problems.length && !allowPartial)
    throw new BatchError(
      `${problems.join('; ')}${en ? ': merge them all, or pass --allow-partial to merge what is here' : ': объедините все части или добавьте --allow-partial, чтобы объединить то, что есть'}`,
    );
  const inClass = base?.run.inputs?.submissions;
  if (problems.length)
    warnings.push(
      (en ? 'merged with --allow-partial: ' : 'объединено с --allow-partial: ') +
        problems.join('; ') +
        (inClass !== undefined
          ? en
            ? ` (the class has ${inClass} submissions)`
            : ` (в группе ${inClass} работ)`
          : ''),
    );
  return {
    classHash: base?.run.class_hash ?? null,
    missing,
    foreign: [...foreign, ...unmarked.map((r) => r.dir)],
    inputs: base?.run.inputs ?? null,
    warnings,
  };
}

/**
 * `grade-batch gradebook <out dirs…> --out <file.csv> [--gradebook canvas|moodle]`: one gradebook with a column per
 * exercise; with `gradebook`, in that LMS's import form, of the rows the runs matched to a roster of that LMS.
 */
export function gradebookOf({ dirs, out, lang = 'ru', gradebook = null }) {
  const en = lang === 'en';
  const summaries = dirs.map((d) => {
    const s = readJson(join(d, 'summary.json'));
    if (!s) throw new BatchError(en ? `${d} has no summary.json` : `в ${d} нет summary.json`);
    return s;
  });
  if (gradebook && !summaries.some((s) => s.students?.some((x) => x.lms?.format === gradebook)))
    throw new BatchError(
      en
        ? `no student of ${dirs.join(', ')} is matched to a ${gradebook} roster: grade them with --roster (the LMS's export)`
        : `ни один студент в ${dirs.join(', ')} не сопоставлен со списком ${gradebook}: проверьте с --roster (выгрузкой из LMS)`,
    );
  writeAtomic(out, gradebook ? lmsGradebookCsv(summaries, gradebook) : gradebookCsv(summaries));
  return 0;
}
