// A zip archive read in memory (no extraction, so no path ever reaches the file system): the entries
// of the central directory, each inflated only when asked and never past a size cap. Stored and
// deflated entries; an encrypted, multi-disk or Zip64 archive is refused with a message saying so.
// Also the smallest writer (stored entries), for tools/gradescope-autograder and the tests.
import { inflateRawSync } from 'node:zlib';
import { nameText } from '../wire/text.mjs';

export class ZipError extends Error {}

const EOCD = 0x06054b50,
  CEN = 0x02014b50,
  LOC = 0x04034b50;
const MAX_ENTRIES = 100000;

/** The entries of the zip in `buf`: [{ path, size, dir, escaped (the name was not UTF-8), read(cap) → Buffer }] (read throws ZipError past `cap` bytes). */
export function readZip(buf, where = 'the zip') {
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65535); i--)
    if (buf.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  if (end < 0) throw new ZipError(`${where} is not a zip archive (no end of central directory)`);
  const count = buf.readUInt16LE(end + 10),
    cdSize = buf.readUInt32LE(end + 12),
    cdStart = buf.readUInt32LE(end + 16);
  if (buf.readUInt16LE(end + 4) !== 0 || buf.readUInt16LE(end + 6) !== 0)
    throw new ZipError(`${where} spans several disks, which is not supported`);
  if (count === 0xffff || cdStart === 0xffffffff)
    throw new ZipError(`${where} is a Zip64 archive, which is not supported: make it with a plain zip`);
  if (count > MAX_ENTRIES) throw new ZipError(`${where} has ${count} entries, more than ${MAX_ENTRIES}`);
  if (cdStart + cdSize > buf.length)
    throw new ZipError(`${where} is truncated (its central directory lies past its end)`);
  const entries = [];
  let p = cdStart;
  for (let k = 0; k < count; k++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CEN)
      throw new ZipError(`${where}: entry ${k + 1} of its central directory is damaged`);
    const flags = buf.readUInt16LE(p + 8),
      method = buf.readUInt16LE(p + 10);
    const csize = buf.readUInt32LE(p + 20),
      size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28),
      extraLen = buf.readUInt16LE(p + 30),
      commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const mtime = entryTime(buf, p, nameLen, extraLen);
    // Bit 11 says the name is UTF-8; without it the name may be CP437 or any local code page (Windows
    // writes its OEM one), or UTF-8 anyway (Info-ZIP, macOS): UTF-8 where valid, every other byte shown
    // as \xNN (wire/text.mjs nameText). A backslash separates folders as a slash does.
    const raw = Buffer.from(buf.subarray(p + 46, p + 46 + nameLen)).map((c) => (c === 0x5c ? 0x2f : c));
    const { text: path, escaped } = nameText(raw);
    p += 46 + nameLen + extraLen + commentLen;
    const read = (cap) => {
      if (flags & 1) throw new ZipError(`${where}: ${path} is encrypted`);
      if (size > cap) throw new ZipError(`${where}: ${path} is ${size} bytes, more than ${cap}`);
      if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOC)
        throw new ZipError(`${where}: ${path} is damaged (no local header)`);
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      if (start + csize > buf.length) throw new ZipError(`${where}: ${path} is truncated`);
      const data = buf.subarray(start, start + csize);
      if (method === 0) return Buffer.from(data);
      if (method !== 8)
        throw new ZipError(
          `${where}: ${path} uses compression method ${method}; only stored and deflated entries are read`,
        );
      try {
        return inflateRawSync(data, { maxOutputLength: Math.max(1, cap) });
      } catch (e) {
        throw new ZipError(
          `${where}: ${path} cannot be inflated (${e.code === 'ERR_BUFFER_TOO_LARGE' ? `more than ${cap} bytes` : e.message})`,
        );
      }
    };
    entries.push({ path, size, dir: path.endsWith('/'), escaped, mtime, read });
  }
  return entries;
}

/**
 * An entry's modification time from its central directory record at `p`: the extended timestamp field
 * (0x5455, Unix seconds, UTC) where there is one → { ms, naive: false }; else the MS-DOS date and time,
 * which carry no zone (the zipping machine's clock) → { ms: those fields read as UTC, naive: true }.
 */
function entryTime(buf, p, nameLen, extraLen) {
  for (let q = p + 46 + nameLen, end = q + extraLen; q + 4 <= end && q + 4 <= buf.length;) {
    const id = buf.readUInt16LE(q),
      len = buf.readUInt16LE(q + 2);
    if (id === 0x5455 && len >= 5 && q + 9 <= buf.length && buf[q + 4] & 1)
      return { ms: buf.readUInt32LE(q + 5) * 1000, naive: false };
    q += 4 + len;
  }
  const time = buf.readUInt16LE(p + 12),
    date = buf.readUInt16LE(p + 14);
  const ms = Date.UTC(
    1980 + (date >> 9),
    ((date >> 5) & 15) - 1,
    date & 31,
    time >> 11,
    (time >> 5) & 63,
    (time & 31) * 2,
  );
  return { ms, naive: true };
}

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
export function crc32(buf) {
  let c = -1;
  for (let i = 0; i < buf.length; i++) c = CRC[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** A date as MS-DOS packs it in a zip entry (local time fields, 2 s steps): (date << 16) | time. */
const dosTime = (d) =>
  (((((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate()) << 16) |
    (d.getHours() << 11) |
    (d.getMinutes() << 5) |
    (d.getSeconds() >> 1)) >>>
  0;
const EPOCH = new Date(1996, 0, 1);

/**
 * A zip of `files` ([{ path: string|Buffer, data: Buffer|string, mode?, date? }]), stored (no compression); `mode` sets
 * Unix permissions (0o755 for scripts); `date` (default 1996-01-01, so the same files give the same bytes).
 */
export function writeZip(files) {
  const locals = [],
    centrals = [];
  let offset = 0;
  for (const f of files) {
    const data = Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data, 'utf8');
    // A name given as bytes is written as they are, without the UTF-8 flag (as Windows' own zip writes its code page).
    const name = Buffer.isBuffer(f.path) ? f.path : Buffer.from(f.path, 'utf8'),
      flags = Buffer.isBuffer(f.path) ? 0 : 0x800,
      crc = crc32(data);
    const loc = Buffer.alloc(30);
    loc.writeUInt32LE(LOC, 0);
    loc.writeUInt16LE(20, 4);
    loc.writeUInt16LE(flags, 6);
    loc.writeUInt16LE(0, 8);
    const when = dosTime(f.date ?? EPOCH);
    loc.writeUInt32LE(when, 10);
    loc.writeUInt32LE(crc, 14);
    loc.writeUInt32LE(data.length, 18);
    loc.writeUInt32LE(data.length, 22);
    loc.writeUInt16LE(name.length, 26);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(CEN, 0);
    cen.writeUInt16LE(0x031e, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(flags, 8);
    cen.writeUInt32LE(when, 12);
    cen.writeUInt32LE(crc, 16);
    cen.writeUInt32LE(data.length, 20);
    cen.writeUInt32LE(data.length, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE((((f.mode ?? 0o644) | 0o100000) << 16) >>> 0, 38);
    cen.writeUInt32LE(offset, 42);
    locals.push(loc, name, data);
    centrals.push(cen, name);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(centrals),
    end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
