// Build-time (Node) only, read by grader/tracks/bundle.mjs: what esbuild needs to bundle this track's
// guest (the Node child's and the page's worker): MicroPython's glue as a module (./glue.mjs) and the
// guest's own .py files as MicroPython bytecode (./bytecode.mjs).
import { gluePlugin } from './glue.mjs';
import { bytecodePlugin } from './bytecode.mjs';

export const plugins = [gluePlugin, bytecodePlugin];
