// For `tsc` only (tsconfig.json): the modules the guest imports that esbuild makes when it bundles it.

/** A Python module as MicroPython bytecode (.mpy), compiled at bundle time (./bytecode.mjs, ./build.mjs). */
declare module '*.py' {
  const mpy: Uint8Array;
  export default mpy;
}

/** MicroPython's Emscripten glue, patched at bundle time (./glue.mjs): → its loadMicroPython. */
declare module 'attnlab:micropython-glue' {
  export function createMicroPython(privateGlobal: object): Promise<(options: object) => Promise<any>>;
}
