// The module hook of ./cold-stats.mjs (it runs on Node's hooks thread): each module's URL, as it is
// loaded, appended to $ATTNLAB_COLD_STATS/<pid>.modules (synchronously, so a process that exits at once
// loses none).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const file = join(process.env.ATTNLAB_COLD_STATS, `${process.pid}.modules`);

export async function load(url, context, next) {
  appendFileSync(file, `${url}\n`);
  return next(url, context);
}
