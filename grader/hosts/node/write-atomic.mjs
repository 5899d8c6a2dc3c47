// One file written whole or not at all, for everything the Node side keeps on disk and another
// process may read at any moment (a batch's records and summaries, the guests' bundles, the probe's yes).
import { renameSync, writeFileSync } from 'node:fs';

/** Written under another name, then renamed: a reader (or a kill between two writes) sees the old file or the new one, never half of one. */
export function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}
