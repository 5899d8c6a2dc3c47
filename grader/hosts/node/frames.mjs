// The frames between the Node host and a sandbox process (./child.cjs): [u32 little-endian byte
// length][UTF-8 JSON body], both ways. Its sandbox (./sandbox.mjs) and the fork server (./zygote.mjs)
// read and write them through these two functions.

/** Writes `msg` as one frame to `stream`. */
export function writeFrame(stream, msg) {
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length);
  stream.write(head);
  stream.write(body);
}

/**
 * Calls `onBody(text)` with each frame's body read from `stream`. A frame whose header says it is
 * longer than `cap` bytes is never buffered: `onTooBig(length)` is called instead and nothing more is read.
 */
/**
 * @param {import('node:stream').Readable} stream
 * @param {(body: string) => void} onBody
 * @param {{ cap?: number, onTooBig?: (length: number) => void }} [options]
 */
export function readFrames(stream, onBody, { cap = Infinity, onTooBig = () => {} } = {}) {
  const chunks = [];
  let have = 0,
    need = -1,
    stopped = false;
  stream.on('data', (chunk) => {
    if (stopped) return;
    chunks.push(chunk);
    have += chunk.length;
    for (;;) {
      if (need < 0) {
        if (have < 4) return;
        const all = Buffer.concat(chunks.splice(0));
        chunks.push(all);
        need = all.readUInt32LE(0);
        // The size is known before the body is read: a frame over the cap is never buffered.
        if (need > cap) {
          stopped = true;
          chunks.length = 0;
          return onTooBig(need);
        }
      }
      if (have < 4 + need) return;
      const all = Buffer.concat(chunks.splice(0));
      const body = all.subarray(4, 4 + need).toString('utf8');
      const rest = all.subarray(4 + need);
      have = rest.length;
      need = -1;
      if (rest.length) chunks.push(rest);
      onBody(body);
    }
  });
  stream.on('error', () => {});
}
