// The grader's one interface: what the CLI, tools/, web/'s build and server, and the tests import.
// Everything else under grader/ is internal. It is grader/browser.mjs (the part without Node, which is
// all the page may bundle) plus what needs Node: packs read from disk, the Node sandbox host, batch
// grading, and the build-time pieces of the guests.
export * from './browser.mjs';

// Packs on disk (exercises/<slug>/).
export { EXERCISES, listExercises, readPack, loadExercise } from './hosts/node/exercise.mjs';
// A pack's file names, and the types of its ctx.ref written from its binding (tools/ref-types).
export { PACK_FILES } from './core/pack-layout.mjs';
export { referenceTypes } from './core/ref-types.mjs';

// The Node host: a child process per submission (warm pools of them), the guest bundle it runs, and
// the reference's answers remembered across a run's submissions (and on disk, across runs).
export { NodeSandbox } from './hosts/node/sandbox.mjs';
export { createPool, PoolClosed } from './hosts/node/pool.mjs';
export { cachedCore } from './core/ref-cache.mjs';
export { refStore, refStoreDir } from './hosts/node/ref-store.mjs';
export { guestBundle } from './hosts/node/guest-bundle.mjs';
export { workerShell, workerGuest, WORKER_GUEST } from './hosts/browser/workers.mjs';
export { guestPlugins, guestWasm } from './tracks/bundle.mjs';
export { trackFolders, trackFile, catalog, loadTrack } from './tracks/catalog.mjs';
// The CLI's spelling check ("did you mean …?"), for the tools' own arguments too (tools/check-pack).
export { closest } from './cli-text.mjs';

// Batch grading (grade-batch): a class, shards and their merge, gradebooks, zips.
export { runBatch, mergeBatch, gradebookOf, BatchError } from './batch/index.mjs';
export { InputError } from './batch/inputs.mjs';
export { parseShard } from './batch/shard.mjs';
export { writeZip } from './batch/zip.mjs';
// What the grading service (server/) shares with the batch: a pack's version, the regrade diff of two
// summaries, a CSV cell, HTML-escaped student text, the class report (summary, similarity, report.html).
export { packVersion } from './batch/run.mjs';
export { regradeDiff, csvCell, summarize } from './batch/summary.mjs';
export { escapeHtml, reportHtml } from './batch/report.mjs';
export { similarityOf } from './batch/index.mjs';

// Inside the sandbox, for tools that measure it (tools/measure-overhead): np and a call's measurement.
export { np } from './np/index.mjs';
export { measureCall } from './tracks/measure.mjs';
export { createOutput } from './tracks/guest-kit.mjs';
