// Shards: `--shard i/n` grades the submissions whose name hashes to share i of n (1-based), the same
// share on every machine and at every run, whatever else is in the folder.
import { createHash } from 'node:crypto';

/** "2/3" → { index: 2, count: 3 }, or null with `error` set for anything else. */
export function parseShard(text) {
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(String(text));
  if (!m || +m[2] < 1 || +m[1] < 1 || +m[1] > +m[2]) return null;
  return { index: +m[1], count: +m[2] };
}

/** Is `student` in `shard`? By the first 32 bits of the SHA-256 of its name. */
export function inShard(student, { index, count }) {
  return createHash('sha256').update(String(student)).digest().readUInt32BE(0) % count === index - 1;
}

/**
 * The class's content hash (run.json `class_hash`): of every submission found in the input, whatever the
 * shard — its student and its bytes (or, for one not read, what was found) — so shards of one class agree.
 */
export function classHash(submissions) {
  const h = createHash('sha256');
  for (const s of [...submissions].sort((a, b) => (a.student < b.student ? -1 : a.student > b.student ? 1 : 0))) {
    const body = s.bytes ?? Buffer.from(JSON.stringify([s.file, s.problem?.en ?? null]));
    h.update(`${s.student}\0${createHash('sha256').update(body).digest('hex')}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

/** "I/N" as run.json and the messages write it. */
export const shardName = ({ index, count }) => `${index}/${count}`;
