// Prints the golden values that tests/cpp/test_prng.cpp and tests/js/prng.test.mjs pin, computed by
// the C++ Rng (the reference; the JS twin must reproduce them, never the other way round):
//   g++ -std=c++17 -O2 -ffp-contract=off -Iwasm/include tests/cpp/golden/prng-golden.cpp -o build/prng-golden && build/prng-golden
// Paste its output into both tests; they hold the same literals.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "attnlab/prng.hpp"

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// FNV-1a (64-bit) over each double's 8 bytes, least significant first.
std::uint64_t fnv1a64_of_normals(std::uint32_t seed, std::size_t n) {
  attnlab::Rng rng(seed);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t b = bits(rng.normal());
    for (int k = 0; k < 8; ++k) {
      h ^= (b >> (8 * k)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

}  // namespace

int main() {
  for (const std::uint32_t seed : {2017u, 7u}) {
    attnlab::Rng u(seed), g(seed);
    std::printf("seed %u uniforms:", seed);
    for (int i = 0; i < 8; ++i) std::printf(" \"%016" PRIx64 "\",", bits(u.next()));
    std::printf("\nseed %u normals:", seed);
    for (int i = 0; i < 8; ++i) std::printf(" \"%016" PRIx64 "\",", bits(g.normal()));
    std::printf("\n");
  }
  std::printf("fnv1a64 of the first 1000000 normals of seed 2017: \"%016" PRIx64 "\"\n",
              fnv1a64_of_normals(2017, 1000000));
  const char* keys[] = {"", "sdpa/causal_mask", "sdpa/softmax", "ru/тест", "emoji/\xF0\x9F\x98\x80"};
  for (const std::uint32_t seed : {2017u, 7u, 0u, 4294967295u})
    for (const char* key : keys)
      std::printf("derive_seed(%u, \"%s\") = 0x%08x\n", seed, key, attnlab::derive_seed(seed, key));
}
