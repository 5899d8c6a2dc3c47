// What tsc reads for wasm/index.mjs (its imports from grader/ and tools/): the hand-written types of
// attnlab.d.ts, rather than the JS and the Emscripten glue it loads (not written for tsc).
export * from './attnlab';
