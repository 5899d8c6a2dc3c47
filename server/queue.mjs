// The grading queue: durable, on the database. A submission is stored as `queued` before it is answered,
// so a restart loses none. SQLite (one process): the submissions table is the queue, taken in id order
// by this process's workers; at start, rows left `grading` by a killed process go back to `queued`.
// PostgreSQL: pg-boss (jobs in the same database; any number of `tools/server worker` processes take
// them; a job whose worker died expires and is retried). Either way a job only names a submission, and
// claiming it is a conditional UPDATE, so a job run twice grades and scores once (see service.mjs).
export const QUEUE = 'attnlab-grade';
const EXPIRE_S = 600; // a job running longer than this (its worker died) is retried: above any grading deadline

/** A queue over `db`; `handle(id)` grades one submission. `workers`: jobs at a time in this process. */
export async function createQueue({ db, workers, handle, log }) {
  return db.dialect === 'postgres'
    ? pgBossQueue({ db, workers, handle, log })
    : tableQueue({ db, workers, handle, log });
}

function tableQueue({ db, workers, handle, log }) {
  let running = 0,
    stopped = false,
    timer = null;
  const idle = new Set();
  const pump = async () => {
    while (!stopped && running < workers) {
      const row = await db.get("SELECT id FROM submissions WHERE status = 'queued' ORDER BY id LIMIT 1");
      if (!row) return;
      const r = await db.run("UPDATE submissions SET status = 'grading' WHERE id = ? AND status = 'queued'", [row.id]);
      if (r.changes !== 1) continue;
      running++;
      handle(row.id)
        .catch((e) => log.error({ err: String(e?.stack ?? e), submission: row.id }, 'grading failed'))
        .finally(() => {
          running--;
          if (running === 0) for (const f of idle) f();
          if (!stopped) pump();
        });
    }
  };
  return {
    kind: 'table',
    async start() {
      if (workers === 0) return;
      const back = await db.run("UPDATE submissions SET status = 'queued' WHERE status = 'grading'");
      if (back.changes)
        log.info({ requeued: back.changes }, 'submissions left grading by a stopped process are queued again');
      timer = setInterval(pump, 1000);
      timer.unref();
      pump();
    },
    async enqueue() {
      pump();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await new Promise((r) => idle.add(r));
    },
  };
}

async function pgBossQueue({ db, workers, handle, log }) {
  const { default: PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: db.url, max: 4 });
  boss.on('error', (e) => log.error({ err: String(e?.message ?? e) }, 'pg-boss'));
  await boss.start();
  await boss.createQueue(QUEUE).catch(() => {}); // exists already: fine
  return {
    kind: 'pg-boss',
    async start() {
      for (let i = 0; i < workers; i++)
        await boss.work(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
          await handle(job.data.id);
        });
    },
    async enqueue(id) {
      await boss.send(QUEUE, { id }, { retryLimit: 3, retryDelay: 1, expireInSeconds: EXPIRE_S });
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 30_000 });
    },
  };
}
