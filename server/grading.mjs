// Grading on the service: the same grader as the CLI and the page (grader/index.mjs's grade), each
// submission in a NodeSandbox of its own (a child process, single use), the seed and limits the pack
// gives, so the service's verdict is the page's. The core is loaded once per process.
import {
  EXERCISES,
  NodeSandbox,
  grade,
  listExercises,
  loadExercise,
  packVersion,
  trackNamed,
} from '../grader/index.mjs';
import { loadCore } from '../wasm/index.mjs';

/** What the service stores of a test: its status, and its cause's key and params when it has one (else none). */
export function causesOf(report) {
  return report.tests.map((t) => ({
    test: t.id,
    status: t.status,
    key: t.cause?.key ?? null,
    params: t.cause?.params ?? null,
  }));
}

export function createGrader({ exercises = EXERCISES } = {}) {
  let core = null;
  const packs = new Map();
  const pack = async (slug) => {
    if (!packs.has(slug)) {
      const exercise = await loadExercise(slug, exercises);
      packs.set(slug, { exercise, version: packVersion(exercise) });
    }
    return packs.get(slug);
  };
  return {
    pack,
    /** The packs' slugs, in course order. */
    list: () => listExercises(exercises),
    /** Forgets the loaded packs (a regrade after a pack changed on disk reads them again). */
    reload() {
      packs.clear();
    },
    /** Grades `code` against pack `slug` on track `trackName`: { report, version }. */
    async grade({ slug, trackName, code, lang }) {
      core ??= loadCore({ threads: 1 });
      const track = trackNamed(trackName);
      if (!track) throw new Error(`unknown track ${JSON.stringify(trackName)}`);
      // The child starts while the pack and the core load; if they fail, it is closed all the same. A
      // copy of the track's fork server (grader/hosts/node/zygote.mjs): a service grades many.
      const sandboxReady = NodeSandbox.create({ track, forked: true });
      let loaded;
      try {
        loaded = await Promise.all([pack(slug), core]);
      } catch (e) {
        await sandboxReady.then(
          (s) => s.close(),
          () => {},
        );
        throw e;
      }
      const [{ exercise, version }, c] = loaded;
      const sandbox = await sandboxReady;
      try {
        const report = await grade({ exercise, source: code, track, sandbox, core: c, lang });
        return { report, version };
      } finally {
        await sandbox.close();
      }
    },
  };
}
