// flash's reference functions for JS, with the signatures students implement plus a trailing options
// object for the classic mistakes (reference/flash.hpp lists them): core.call("flash.<name>", …),
// ctx.ref.<name> in suite.mjs.
//   flash.softmax_merge(m_a, l_a, m_b, l_b, { rescale_l, guard })                       → [m, l]
//   flash.flash_attention(Q, K, V, block_size, causal = true, { rescale_acc, rescale_l, drop_last,
//                         local_mask, scaling, guard })                                     → out
#include "attnlab/embind.hpp"
#include "flash/reference/flash.hpp"

using namespace attnlab::js;
namespace flash = attnlab::flash;

namespace {

val softmax_merge(val m_a, val l_a, val m_b, val l_b, val options) {
  return guarded([&] {
    flash::MergeOptions o;
    o.rescale_l = option(options, "rescale_l", true);
    o.guard = option(options, "guard", true);
    const auto r = flash::softmax_merge(tensor(m_a), tensor(l_a), tensor(m_b), tensor(l_b), o);
    return list({to_js(r.m), to_js(r.l)});
  });
}

val flash_attention(val Q, val K, val V, val block_size, val causal, val options) {
  return guarded([&] {
    flash::FlashOptions o;
    o.rescale_acc = option(options, "rescale_acc", true);
    o.rescale_l = option(options, "rescale_l", true);
    o.drop_last = option(options, "drop_last", false);
    o.local_mask = option(options, "local_mask", false);
    o.scaling = option(options, "scaling", "sqrt");
    o.guard = option(options, "guard", true);
    return to_js(
        flash::flash_attention(tensor(Q), tensor(K), tensor(V), size(block_size, "block_size"), flag(causal, true), o));
  });
}

}  // namespace

ATTNLAB_BINDINGS(flash) {
  def("flash.softmax_merge", &softmax_merge);
  def("flash.flash_attention", &flash_attention);
}
