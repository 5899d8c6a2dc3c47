#!/usr/bin/env node
// Rewrites the relaxed-SIMD multiply-add of a .wasm built by Debian's Emscripten 3.1.6 (LLVM 14)
// from the proposal's early opcode to the one the standard and today's engines use:
//   LLVM 14 `f32x4.fma`  = 0xfd 0xaf 0x01 (prototype, 2021)
//   f32x4.relaxed_madd   = 0xfd 0x85 0x02 (relaxed-simd proposal, final; V8 >= 11, Chrome 114+)
// Both encodings are 3 bytes, so no size field moves. The stack order is the same (a, b, c) and the
// final meaning is a * b + c; fused.hpp's Vec4::madd passes its arguments in that order.
// The offsets come from a disassembler (llvm-objdump-14, installed with Emscripten), never from a
// byte search, and every site is checked before it is written. Any other relaxed instruction
// (whose early opcode differs too) is refused, so a newer source cannot slip through half-patched.
//   node tools/relaxed-opcodes.mjs FILE.wasm     (in place; prints how many sites it rewrote)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const OLD = [0xfd, 0xaf, 0x01];
const NEW = [0xfd, 0x85, 0x02];
// Mnemonics LLVM 14 gives the early relaxed-SIMD instructions (all need new opcodes too).
const OTHER_RELAXED = /\b(f32x4\.fms|f64x2\.fma|f64x2\.fms|laneselect|relaxed_|i8x16\.swizzle_relaxed)\b/;

function fail(msg) {
  console.error(`relaxed-opcodes: ${msg}`);
  process.exit(1);
}

// File offset of the code section's payload: llvm-objdump's addresses count from there.
function codePayloadStart(bytes) {
  const leb = (pos) => {
    let value = 0,
      shift = 0,
      b;
    do {
      b = bytes[pos++];
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return [value, pos];
  };
  let pos = 8; // magic + version
  while (pos < bytes.length) {
    const id = bytes[pos];
    const [size, start] = leb(pos + 1);
    if (id === 10) return start;
    pos = start + size;
  }
  fail('no code section');
}

const file = process.argv[2];
if (!file) fail('usage: node tools/relaxed-opcodes.mjs FILE.wasm');
const bytes = fs.readFileSync(file);
const base = codePayloadStart(bytes);
let listing;
try {
  listing = execFileSync('llvm-objdump-14', ['-d', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
} catch (e) {
  fail(`llvm-objdump-14 -d ${file} failed (it comes with Debian's llvm-14, an emscripten dependency): ${e.message}`);
}
let count = 0;
for (const line of listing.split('\n')) {
  if (OTHER_RELAXED.test(line)) fail(`unsupported relaxed instruction: ${line.trim()}`);
  if (!/\tf32x4\.fma\b/.test(line)) continue;
  const at = base + parseInt(line.trim().split(':')[0], 16);
  if (!OLD.every((b, i) => bytes[at + i] === b)) fail(`expected f32x4.fma bytes at ${at}: ${line.trim()}`);
  NEW.forEach((b, i) => {
    bytes[at + i] = b;
  });
  count++;
}
fs.writeFileSync(file, bytes);
console.log(`relaxed-opcodes: ${file}: ${count} f32x4.fma -> f32x4.relaxed_madd`);
