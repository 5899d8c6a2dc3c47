// The module web/build.mjs resolves, per track, to that track's worker guest (grader/tracks/<name>/worker.js:
// `export default install`), which ./worker.js, the shell every track's worker shares, hands to startWorker.
declare module 'attnlab:worker-guest' {
  const install: (options: { config: any; hide: string[] }) => any;
  export default install;
}
