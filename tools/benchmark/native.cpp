// attnlab-native(-fma): the fused kernel (wasm/include/attnlab/fused.hpp) compiled natively, driven
// by tools/benchmark/run.mjs as a child process. Built by tools/bench with c++ -O3 for the default
// x86-64 target (128-bit SSE, no FMA: the twin of WASM SIMD128) and again with -mfma (still 128-bit
// vectors: the twin of the relaxed-SIMD build).
//   attnlab-native DIR B H T d causal
// reads DIR/{q,k,v}.f32 (float32, (B,H,T,d)), then answers one command per stdin line:
//   out          -> runs once, writes DIR/out.f32, prints {"ok":true}
//   time MIN_MS  -> runs until MIN_MS have passed (at least once), prints {"samples":[ms,...]}
//   quit
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "attnlab/fused.hpp"

namespace {

std::vector<float> read_f32(const std::string& path, std::size_t n) {
  std::vector<float> v(n);
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(v.data()), std::streamsize(n * sizeof(float))))
    throw std::runtime_error("cannot read " + std::to_string(n) + " floats from " + path);
  return v;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc != 7) {
    std::cerr << "usage: attnlab-native DIR B H T d causal\n";
    return 2;
  }
  const std::string dir = argv[1];
  const std::size_t B = std::stoul(argv[2]), H = std::stoul(argv[3]), T = std::stoul(argv[4]), d = std::stoul(argv[5]);
  attnlab::fused::Options opt;
  opt.causal = std::string(argv[6]) == "1";
  const attnlab::fused::Dims dims{B, H, T, T, d, d};
  const std::size_t n = B * H * T * d;
  const auto q = read_f32(dir + "/q.f32", n), k = read_f32(dir + "/k.f32", n), v = read_f32(dir + "/v.f32", n);
  std::vector<float> out(n);
  const auto run = [&] { attnlab::fused::attention_f32(q.data(), k.data(), v.data(), out.data(), nullptr, dims, opt); };
  for (std::string line; std::getline(std::cin, line);) {
    std::istringstream cmd(line);
    std::string op;
    cmd >> op;
    if (op == "out") {
      run();
      std::ofstream(dir + "/out.f32", std::ios::binary)
          .write(reinterpret_cast<const char*>(out.data()), std::streamsize(n * sizeof(float)));
      std::cout << "{\"ok\":true}" << std::endl;
    } else if (op == "time") {
      double min_ms = 0;
      cmd >> min_ms;
      using clock = std::chrono::steady_clock;
      const auto start = clock::now();
      std::ostringstream s;
      const char* sep = "";
      do {
        const auto t0 = clock::now();
        run();
        s << sep << std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        sep = ",";
      } while (std::chrono::duration<double, std::milli>(clock::now() - start).count() < min_ms);
      std::cout << "{\"samples\":[" << s.str() << "]}" << std::endl;
    } else if (op == "quit") {
      break;
    } else {
      std::cout << "{\"error\":\"unknown command " << op << "\"}" << std::endl;
    }
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "attnlab-native: " << e.what() << "\n";
  return 1;
}
