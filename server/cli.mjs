#!/usr/bin/env node
// `tools/server`'s entry (server/main.mjs main(): serve, worker, platform add|list).
import { main } from './main.mjs';

const code = await main(process.argv.slice(2));
if (code !== null) process.exit(code);
