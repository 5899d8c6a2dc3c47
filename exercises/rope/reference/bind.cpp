// rope's reference functions for JS, with the signatures students implement plus a trailing options
// object for the classic mistakes (reference/rope.hpp lists them): core.call("rope.<name>", …),
// ctx.ref.<name> in suite.mjs.
//   rope.rope_cache(T, d_head, base = 10000, { exponent, start, swap })          → [cos, sin]
//   rope.apply_rope(x, cos, sin, offset = 0, { layout, direction, swap, use_offset }) → x's shape
#include "attnlab/embind.hpp"
#include "rope/reference/rope.hpp"

using namespace attnlab::js;
namespace rope = attnlab::rope;

namespace {

val rope_cache(val T, val d_head, val base, val options) {
  return guarded([&] {
    rope::CacheOptions o;
    o.exponent = option(options, "exponent", "2i/d");
    o.start = size(field(options, "start").isNumber() ? field(options, "start") : val(0), "start");
    o.swap = option(options, "swap", false);
    const double b = base.isUndefined() || base.isNull() ? 10000.0 : number(base, "base");
    const auto r = rope::rope_cache(size(T, "T"), size(d_head, "d_head"), b, o);
    return list({to_js(r.cos), to_js(r.sin)});
  });
}

val apply_rope(val x, val cos, val sin, val offset, val options) {
  return guarded([&] {
    rope::ApplyOptions o;
    o.layout = option(options, "layout", "interleaved");
    o.direction = option(options, "direction", 1.0) < 0 ? -1 : 1;
    o.swap = option(options, "swap", false);
    o.use_offset = option(options, "use_offset", true);
    const std::size_t off = offset.isUndefined() || offset.isNull() ? 0 : size(offset, "offset");
    return to_js(rope::apply_rope(tensor(x), tensor(cos), tensor(sin), off, o));
  });
}

}  // namespace

ATTNLAB_BINDINGS(rope) {
  def("rope.rope_cache", &rope_cache);
  def("rope.apply_rope", &apply_rope);
}
