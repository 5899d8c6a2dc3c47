// Tests of the threaded driver of the fused kernel (wasm/include/attnlab/fused_parallel.hpp) and of
// its pool (pool.hpp), natively with std::thread: on every case of tests/conformance/attention.json
// and on shapes with several pack chunks and super-blocks, attention_f32_parallel gives results
// bit-identical to the single-threaded attention_f32_with, on both lane types, with 1 to 7 threads,
// with the small-call shortcut on and off, and with one workspace reused across shapes.
// (Its accuracy against the double reference is test_fused.cpp's: the same numbers.)
// Run: tools/build && (cd build && ctest --output-on-failure -R test_fused_parallel)
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "attnlab/fused_parallel.hpp"
#include "attnlab/prng.hpp"

using namespace attnlab;
using json = nlohmann::json;

namespace {

struct Shape {
  std::string name;
  fused::Dims dims;
  bool causal, weights;
  std::optional<double> scale;
  std::uint32_t seed;
};

std::vector<Shape> shapes() {
  const auto path = std::filesystem::path(__FILE__).parent_path() / ".." / "conformance" / "attention.json";
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  const json table = json::parse(in);
  std::vector<Shape> out;
  for (const json& c : table.at("cases")) {
    Shape s{c.at("name"),   {c.at("B"), c.at("H"), c.at("Tq"), c.at("Tk"), c.at("d"), c.at("dv")},
            c.at("causal"), c.at("weights"),
            std::nullopt,   c.at("seed")};
    if (!c.at("scale").is_null()) s.scale = c.at("scale").get<double>();
    out.push_back(s);
  }
  // Several pack chunks (Tk > 1024) and many super-blocks per (b, h); Tq != Tk both ways.
  out.push_back({"B1_H1_Tq2500_Tk2500_d64_causal", {1, 1, 2500, 2500, 64, 64}, true, false, std::nullopt, 7001});
  out.push_back(
      {"B3_H2_Tq300_Tk1100_d24_dv40_causal_weights", {3, 2, 300, 1100, 24, 40}, true, true, std::nullopt, 7002});
  out.push_back({"B2_H1_Tq1200_Tk90_d33_weights", {2, 1, 1200, 90, 33, 33}, false, true, 0.3, 7003});
  out.push_back({"B5_H3_Tq77_Tk77_d16_causal", {5, 3, 77, 77, 16, 16}, true, false, std::nullopt, 7004});
  return out;
}

struct Run {
  std::vector<float> out, weights;
};

template <class P>
Run single(const Shape& c, const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v) {
  const auto& s = c.dims;
  Run r{std::vector<float>(s.B * s.H * s.Tq * s.dv), std::vector<float>(c.weights ? s.B * s.H * s.Tq * s.Tk : 0)};
  fused::Options o;
  o.causal = c.causal;
  o.scale = c.scale;
  fused::attention_f32_with<P>(q.data(), k.data(), v.data(), r.out.data(), c.weights ? r.weights.data() : nullptr, s,
                               o);
  return r;
}

template <class P>
void check_all(const char* path) {
  ThreadPool pool(7);
  fused::ParallelWorkspace<P> ws;  // one for every call below: reuse across shapes is part of the test
  int compared = 0;
  for (const Shape& c : shapes()) {
    const auto& s = c.dims;
    Rng rng(c.seed);
    const auto f32 = [&](std::size_t n) {
      const auto x = rng.normals(n);
      return std::vector<float>(x.begin(), x.end());
    };
    const auto q = f32(s.B * s.H * s.Tq * s.d), k = f32(s.B * s.H * s.Tk * s.d), v = f32(s.B * s.H * s.Tk * s.dv);
    const Run want = single<P>(c, q, k, v);
    for (int threads : {1, 2, 3, 4, 7})
      for (double min_work : {0.0, fused::kMinParallelWork}) {
        // NaN-filled: a value the kernel never wrote cannot compare equal by bytes by accident.
        Run got{std::vector<float>(want.out.size(), NAN), std::vector<float>(want.weights.size(), NAN)};
        fused::Options o;
        o.causal = c.causal;
        o.scale = c.scale;
        fused::attention_f32_parallel_with<P>(q.data(), k.data(), v.data(), got.out.data(),
                                              c.weights ? got.weights.data() : nullptr, s, o, ws, pool, threads,
                                              min_work);
        INFO(path << " path, case " << c.name << ", " << threads << " threads, min_work " << min_work);
        CHECK(std::memcmp(got.out.data(), want.out.data(), want.out.size() * sizeof(float)) == 0);
        CHECK(std::memcmp(got.weights.data(), want.weights.data(), want.weights.size() * sizeof(float)) == 0);
        ++compared;
      }
  }
  CHECK(compared > 100);
}

}  // namespace

TEST_CASE("parallel == single-threaded, bit for bit: vector path") { check_all<fused::Vec4>("vector"); }

TEST_CASE("parallel == single-threaded, bit for bit: scalar path") { check_all<fused::Scalar>("scalar"); }

TEST_CASE("pool: every item runs exactly once, on the threads asked for, many runs in a row") {
  ThreadPool pool(4);
  CHECK(pool.size() == 4);
  std::vector<std::atomic<int>> hits(1000);
  for (int round = 0; round < 2000; ++round) {
    const std::size_t n = 1 + (round * 37) % 1000;
    const int active = 1 + round % 5;  // 5 > size: clamped to 4
    std::atomic<int> bad_thread{0};
    for (std::size_t i = 0; i < n; ++i) hits[i].store(0);
    pool.run(
        n,
        [&](std::size_t i, int t) {
          hits[i].fetch_add(1);
          if (t < 0 || t >= std::min(active, pool.size())) bad_thread.fetch_add(1);
        },
        active);
    for (std::size_t i = 0; i < n; ++i) REQUIRE_MESSAGE(hits[i].load() == 1, "round " << round << ", item " << i);
    REQUIRE(bad_thread.load() == 0);
  }
}

TEST_CASE("pool: a pool of one runs everything on the caller") {
  ThreadPool pool(1);
  int sum = 0;
  pool.run(
      10,
      [&](std::size_t i, int t) {
        sum += int(i);
        CHECK(t == 0);
      },
      8);
  CHECK(sum == 45);
}

TEST_CASE("parallel: bad shapes are rejected like attention_f32's") {
  ThreadPool pool(2);
  fused::ParallelWorkspace<fused::DefaultPath> ws;
  std::vector<float> x(16);
  CHECK_THROWS_WITH_AS(fused::attention_f32_parallel(x.data(), x.data(), x.data(), x.data(), nullptr,
                                                     {1, 1, 2, 0, 2, 2}, {}, ws, pool, 2),
                       doctest::Contains("Tk=0"), std::invalid_argument);
}

TEST_CASE("pool: the workers take part (last_participants)") {
  ThreadPool pool(3);
  pool.run(
      60, [](std::size_t, int) { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }, 3);
  CHECK(pool.last_participants() >= 2);  // 60 ms of items: a worker that sleeps wakes long before the end
  pool.run(
      5, [](std::size_t, int) {}, 1);
  CHECK(pool.last_participants() == 1);
}
