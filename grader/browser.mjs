// The grader's interface without Node: what the page (web/src) imports, and the part of grader/index.mjs
// that is the same in every host (index.mjs re-exports all of it). Everything under grader/ that is not
// named here or in index.mjs is internal. Nothing here imports a Node module, so the page's bundle
// stays browser-only. The track registry is bound here: core is given the tracks, it never imports them.
import { TRACKS } from './tracks/index.mjs';
import { packProblems as packProblemsOf, offeredTracks as offeredTracksOf } from './core/pack.mjs';

// Grading: the loop (every test of a pack against a submission, one report) and what a pack's tests use.
export { grade, referenceOf, callLimitMs, DEFAULT_DEADLINE_MS } from './core/grade.mjs';
export { PackError, englishFile, starterIn, labelsIn, SOLUTION_WHEN } from './core/pack.mjs';
export { hintsFor, failingFunction, perFunction } from './core/hints.mjs';
/** Problems of a loaded pack (each a sentence naming its file and key), checked against every track. */
export const packProblems = (pack) => packProblemsOf(pack, TRACKS);
/** The tracks a pack's files offer (a starter and a solution each), in the registry's order. */
export const offeredTracks = (files) => offeredTracksOf(files, TRACKS);

// Tracks: the submission languages.
export { TRACKS, TRACK_NAMES, DEFAULT_TRACK, trackNamed, trackOfFile } from './tracks/index.mjs';

// Messages and reports.
export { say, LANGS } from './core/messages.mjs';
export { readSyntax } from './core/syntax.mjs';
export { explainError } from './core/explain.mjs';
export * as reporters from './reporters/index.mjs';

// Values: tensors, the seeded generator shared with C++, student text made safe to show.
export { toTensor, toWire, wire, fmtShape, take0 } from './core/tensor.mjs';
export { Rng, deriveSeed } from './core/prng.mjs';
export { visible, capText } from './wire/text.mjs';

// The sandbox boundary: its limits, the codec, the page's host.
export { LIMITS } from './limits.mjs';
export { encodeRequest, decodeRequest, encodeValue, decodeResponse, InvalidValue, PACK_MIN } from './wire/codec.mjs';
export { BrowserSandbox } from './hosts/browser/host.js';
export { workerFile } from './hosts/browser/workers.mjs';
