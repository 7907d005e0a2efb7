// Describe: a codegen_diff_test.cc case as one line, for the test's log.
#include "codegen_case.h"

namespace opuc::codegen_test {

std::string Describe(const Case& c) {
  std::string s = c.identity
                      ? "no inner product: " + std::string(DTypeName(c.in)) + " " +
                            std::to_string(c.h) + "x" + std::to_string(c.w) + "x" +
                            std::to_string(c.ci) + " padded by " + std::to_string(c.pad)
                      : std::string(OpName(c.op)) + " " + std::to_string(c.h) + "x" +
                            std::to_string(c.w) + "x" + std::to_string(c.ci) + " -> " +
                            std::to_string(c.co) + " k" + std::to_string(c.k) + " s" +
                            std::to_string(c.stride) +
                            (c.dilation > 1 ? " d" + std::to_string(c.dilation) : "") +
                            (c.same ? " same" : " valid") + " " + std::string(DTypeName(c.in)) +
                            "->" + std::string(DTypeName(c.out)) + " " + c.fused;
  if (c.fold) s += " (may fold)";
  if (!c.compact) s += " (L-byte pixels)";
  if (c.post_slices > 0) s += " (" + std::to_string(c.post_slices) + " post slice(s) if it fits)";
  if (c.acc_regions > 0)
    s += " (" + std::to_string(c.acc_regions) + " accumulator regions if they fit)";
  if (c.store_blocks == 2) s += " (whole-pixel stores if they fit)";
  if (c.unit_slots == 2) s += " (units two deep)";
  if (!c.pieces.empty()) {
    s += " read as a concat of";
    for (int64_t n : c.pieces) s += " " + std::to_string(n);
  }
  if (c.channel)
    s += " " + std::string(OpName(c.channel_op)) + " " +
         (c.channel_scalar ? "a " : "a per-channel ") + std::string(DTypeName(c.channel_constant)) +
         " constant f" + std::to_string(c.f_constant) + " -> " +
         std::string(DTypeName(c.channel_format)) + " f" + std::to_string(c.f_channel);
  if (c.residual)
    s += " + residual " + std::string(DTypeName(c.res_format)) + " f" + std::to_string(c.f_res) +
         (c.res_channels > 0 ? " of " + std::to_string(c.res_channels) + " channels, padded" : "") +
         " -> " + std::string(DTypeName(c.sum_format)) + " f" + std::to_string(c.f_sum);
  if (c.after) s += std::string(" then ") + c.after + " " + std::string(DTypeName(c.after_format));
  if (c.residual2)
    s += " + residual " + std::string(DTypeName(c.res2_format)) + " f" + std::to_string(c.f_res2) +
         " -> " + std::string(DTypeName(c.sum2_format)) + " f" + std::to_string(c.f_sum2);
  if (c.pool)
    s += " then " + std::string(OpName(c.pool_op)) +
         (c.pool_global || c.pool_op == OpKind::kMean
              ? std::string(" global ")
              : " k" + std::to_string(c.pool_k) + " s" + std::to_string(c.pool_s) +
                    (c.pool_same ? " same " : " valid ")) +
         std::string(DTypeName(c.pool_format)) + " f" + std::to_string(c.f_pool) +
         (c.keep_tap && !c.upsample ? " keeping its input" : "");
  if (c.upsample)
    s += " then upsample 2x " + std::string(DTypeName(c.up_format)) + " f" +
         std::to_string(c.f_up) + (c.keep_tap ? " keeping its input" : "");
  return s;
}

}  // namespace opuc::codegen_test
