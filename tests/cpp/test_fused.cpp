// Tests of the fused float32 attention (wasm/include/attnlab/fused.hpp) on the native build: the
// conformance table tests/conformance/attention.json, run on BOTH lane types (Vec4 = the vector
// path, Scalar = the baseline-WASM path), against the double reference attnlab::ref::attention on
// the same float32-rounded inputs. Rule and tolerances: tests/conformance/README.md.
// Run: tools/build && (cd build && ctest --output-on-failure -R test_fused)
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attnlab/fused.hpp"
#include "attnlab/prng.hpp"
#include "attnlab/reference.hpp"

using namespace attnlab;
using json = nlohmann::json;

namespace {

json load_table() {
  const auto path = std::filesystem::path(__FILE__).parent_path() / ".." / "conformance" / "attention.json";
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  return json::parse(in);
}

struct Case {
  std::string name;
  fused::Dims dims;
  bool causal, weights;
  std::optional<double> scale;
  double magnitude;
  std::uint32_t seed;
};

Case parse(const json& c) {
  Case k{c.at("name"),   {c.at("B"), c.at("H"), c.at("Tq"), c.at("Tk"), c.at("d"), c.at("dv")},
         c.at("causal"), c.at("weights"),
         std::nullopt,   c.at("magnitude"),
         c.at("seed")};
  if (!c.at("scale").is_null()) k.scale = c.at("scale").get<double>();
  return k;
}

// Q, K, V from ONE Rng in that order, rounded to float32 (the table's input rule).
struct Inputs {
  std::vector<float> q, k, v;
};
Inputs make_inputs(const Case& c) {
  const auto& s = c.dims;
  Rng rng(c.seed);
  auto f32 = [&](std::size_t n) {
    const auto x = rng.normals(n, c.magnitude);
    return std::vector<float>(x.begin(), x.end());
  };
  Inputs in;
  in.q = f32(s.B * s.H * s.Tq * s.d);
  in.k = f32(s.B * s.H * s.Tk * s.d);
  in.v = f32(s.B * s.H * s.Tk * s.dv);
  return in;
}

xt::xarray<double> as_double(const std::vector<float>& x, std::vector<std::size_t> shape) {
  xt::xarray<double> a = xt::xarray<double>::from_shape(shape);
  std::copy(x.begin(), x.end(), a.begin());
  return a;
}

ref::AttentionResult expected(const Case& c, const Inputs& in) {
  const auto& s = c.dims;
  ref::AttentionOptions opt;
  opt.scale = c.scale;
  if (c.causal) {  // top-left aligned: query i sees keys j <= i, also when Tq != Tk
    xt::xarray<bool> m = xt::xarray<bool>::from_shape({s.Tq, s.Tk});
    for (std::size_t i = 0; i < s.Tq; ++i)
      for (std::size_t j = 0; j < s.Tk; ++j) m(i, j) = j <= i;
    opt.mask = m;
  }
  return ref::attention(as_double(in.q, {s.B, s.H, s.Tq, s.d}), as_double(in.k, {s.B, s.H, s.Tk, s.d}),
                        as_double(in.v, {s.B, s.H, s.Tk, s.dv}), opt);
}

struct Tol {
  double atol, rtol;
};

// "" when every value passes |got - want| <= atol + rtol*|want| with got finite (the table has no
// non-finite expected values), and every weight the mask hides is exactly 0.
std::string compare(const char* what, const float* got, const xt::xarray<double>& want, const Case& c, Tol tol,
                    bool masked_zero) {
  const double atol = tol.atol;
  const std::size_t Tk = c.dims.Tk, Tq = c.dims.Tq;
  for (std::size_t n = 0; n < want.size(); ++n) {
    const double g = got[n], w = want.data()[n];
    const bool hidden = masked_zero && c.causal && n % Tk > (n / Tk) % Tq;
    const bool ok = hidden ? g == 0.0 : std::isfinite(g) && std::abs(g - w) <= atol + tol.rtol * std::abs(w);
    if (!ok) {
      std::ostringstream msg;
      msg << what << "[" << n << "] = " << g << ", reference " << w << (hidden ? " (masked: must be exactly 0)" : "")
          << ", allowed |diff| " << atol + tol.rtol * std::abs(w);
      return msg.str();
    }
  }
  return "";
}

template <class P>
void run_table(const char* backend) {
  const json table = load_table();
  const Tol tol{table.at("tolerances").at(backend).at("atol"), table.at("tolerances").at(backend).at("rtol")};
  const json skip = table.at("skip").value(backend, json::object());
  int ran = 0;
  for (const json& jc : table.at("cases")) {
    const Case c = parse(jc);
    if (skip.contains(c.name)) continue;
    const Inputs in = make_inputs(c);
    const auto want = expected(c, in);
    const auto& s = c.dims;
    std::vector<float> out(s.B * s.H * s.Tq * s.dv), w(c.weights ? s.B * s.H * s.Tq * s.Tk : 0, NAN);
    fused::Options opt;
    opt.causal = c.causal;
    opt.scale = c.scale;
    fused::attention_f32_with<P>(in.q.data(), in.k.data(), in.v.data(), out.data(), c.weights ? w.data() : nullptr, s,
                                 opt);
    INFO(backend << " path " << P::name() << ", case " << c.name << ", seed " << c.seed);
    CHECK_MESSAGE(compare("out", out.data(), want.out, c, tol, false) == "",
                  compare("out", out.data(), want.out, c, tol, false));
    if (c.weights)
      CHECK_MESSAGE(compare("weights", w.data(), want.weights, c, tol, true) == "",
                    compare("weights", w.data(), want.weights, c, tol, true));
    ++ran;
  }
  CHECK(ran > 10);  // a table that silently skips everything is a failure
}

}  // namespace

TEST_CASE("conformance table: vector path (SSE here, SIMD128 in attnlab-simd.wasm)") {
  run_table<fused::Vec4>("native");
}

TEST_CASE("conformance table: scalar path (the baseline attnlab.wasm)") { run_table<fused::Scalar>("native"); }

TEST_CASE("the default path natively is the vector one") {
#ifndef ATTNLAB_FUSED_SCALAR
  CHECK(std::string(fused::kernel_kind()) == "vec128");
#endif
  CHECK(sizeof(fused::Vec4::T) == 16);
}

TEST_CASE("bad shapes are rejected with a message naming them") {
  std::vector<float> x(16);
  const auto call = [&](fused::Dims s, fused::Options o = {}) {
    fused::attention_f32(x.data(), x.data(), x.data(), x.data(), nullptr, s, o);
  };
  CHECK_THROWS_WITH_AS(call({1, 1, 2, 0, 2, 2}), doctest::Contains("Tk=0"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(call({1, 1, 2, 2, 0, 2}), doctest::Contains("d=0"), std::invalid_argument);
  fused::Options o;
  o.scale = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(call({1, 1, 2, 2, 2, 2}, o), doctest::Contains("scale"), std::invalid_argument);
}

TEST_CASE("NaN in a query row reaches that row's output and no other") {
  const std::size_t T = 9, d = 5;
  Rng rng(7);
  const auto r = rng.normals(3 * T * d);
  std::vector<float> q(r.begin(), r.begin() + T * d), k(r.begin() + T * d, r.begin() + 2 * T * d),
      v(r.begin() + 2 * T * d, r.end()), out(T * d);
  q[4 * d + 1] = NAN;
  for (bool causal : {false, true}) {
    fused::Options o;
    o.causal = causal;
    fused::attention_f32(q.data(), k.data(), v.data(), out.data(), nullptr, {1, 1, T, T, d, d}, o);
    for (std::size_t i = 0; i < T; ++i)
      for (std::size_t x = 0; x < d; ++x) CHECK_MESSAGE(std::isnan(out[i * d + x]) == (i == 4), "row " << i);
  }
}
