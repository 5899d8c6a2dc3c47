// kv_cache's reference functions for JS, with the signatures students implement plus a trailing options
// object for the classic mistakes (reference/kv_cache.hpp lists them): core.call("kv_cache.<name>", …),
// ctx.ref.<name> in suite.mjs.
//   kv_cache.kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes = 2, { kv, layers, batch, dtype }) → a number
//   kv_cache.repeat_kv(x, n_rep, { tile })
//   kv_cache.attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache = null, rope = null,
//                              { rope_offset, mask, tile, keys, cache_update, repeat_before_cache, use_wo })
//       → [out, [k, v]]; cache and rope are JS lists of two tensors ([k, v], [cos, sin]) or null
#include <stdexcept>
#include <string>

#include "attnlab/embind.hpp"
#include "kv_cache/reference/kv_cache.hpp"

using namespace attnlab::js;
namespace kv = attnlab::kv_cache;

namespace {

// A JS list of two tensors ([k, v] or [cos, sin]), or null/undefined.
std::optional<std::pair<kv::Arr, kv::Arr>> pair_of(const val& v, const char* what) {
  if (v.isUndefined() || v.isNull()) return std::nullopt;
  if (!val::global("Array").call<bool>("isArray", v) || v["length"].as<int>() != 2)
    throw std::invalid_argument(std::string("attend_with_cache: ") + what + " must be a list of two arrays or null");
  return std::make_pair(tensor(v[0]), tensor(v[1]));
}

val kv_cache_bytes(val n_layers, val n_kv_heads, val d_head, val seq_len, val batch, val dtype_bytes, val options) {
  return guarded([&] {
    kv::BytesOptions o;
    o.kv = option(options, "kv", true);
    o.layers = option(options, "layers", true);
    o.batch = option(options, "batch", true);
    o.dtype = option(options, "dtype", true);
    const double bytes = number(dtype_bytes, "dtype_bytes", 2.0);
    return val(kv::kv_cache_bytes(size(n_layers, "n_layers"), size(n_kv_heads, "n_kv_heads"), size(d_head, "d_head"),
                                  size(seq_len, "seq_len"), size(batch, "batch"), bytes, o));
  });
}

val repeat_kv(val x, val n_rep, val options) {
  return guarded([&] {
    kv::RepeatOptions o;
    o.tile = option(options, "tile", false);
    return to_js(kv::repeat_kv(tensor(x), size(n_rep, "repeat_kv: n_rep"), o));
  });
}

val attend_with_cache(val x, val wq, val wk, val wv, val wo, val n_heads, val cache, val rope, val options) {
  return guarded([&] {
    kv::AttendOptions o;
    o.rope_offset = option(options, "rope_offset", true);
    o.mask = option(options, "mask", "bottom_right");
    o.tile = option(options, "tile", false);
    o.keys = option(options, "keys", "rotated");
    o.cache_update = option(options, "cache_update", "append");
    o.repeat_before_cache = option(options, "repeat_before_cache", false);
    o.use_wo = option(options, "use_wo", true);
    std::optional<kv::Cache> c;
    if (auto p = pair_of(cache, "cache")) c = kv::Cache{std::move(p->first), std::move(p->second)};
    std::optional<attnlab::rope::RopeCache> r;
    if (auto p = pair_of(rope, "rope")) r = attnlab::rope::RopeCache{std::move(p->first), std::move(p->second)};
    const auto res = kv::attend_with_cache(tensor(x), tensor(wq), tensor(wk), tensor(wv), tensor(wo),
                                           size(n_heads, "attend_with_cache: n_heads"), c, r, o);
    return list({to_js(res.out), list({to_js(res.cache.k), to_js(res.cache.v)})});
  });
}

}  // namespace

ATTNLAB_BINDINGS(kv_cache) {
  def("kv_cache.kv_cache_bytes", &kv_cache_bytes);
  def("kv_cache.repeat_kv", &repeat_kv);
  def("kv_cache.attend_with_cache", &attend_with_cache);
}
