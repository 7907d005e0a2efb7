//===- src/program/input_fold.cc - A fold read from a program, checked ----===//
#include "opuc/program/input_fold.h"

#include "support/format.h"

namespace opuc {
namespace {

// Bounds that keep every product of the folded layout far inside int64:
// the region check against dram_bytes (at most 2^32) does the rest.
constexpr int64_t kMaxFoldWindow = 64;
constexpr int64_t kMaxFoldedChannels = int64_t{1} << 20;

Status InRange(std::string_view field, int64_t value, int64_t lo, int64_t hi) {
  if (value >= lo && value <= hi) return OkStatus();
  return InvalidArgument(Cat("fold.", field, " is ", value, "; expected ", lo, " to ", hi));
}

/// Along one axis: every window starts before the input's end (as a
/// convolution's SAME or VALID windows do), so the folded map is the
/// conv's output and no larger.
Status CheckAxis(std::string_view out, int64_t pixels, int64_t stride, int64_t pad, int64_t input) {
  OPUC_RETURN_IF_ERROR(InRange(out, pixels, 1, input + pad));
  const int64_t last_start = (pixels - 1) * stride - pad;
  if (last_start < input) return OkStatus();
  return InvalidArgument(Cat("fold.", out, " is ", pixels, ": its last window starts at ",
                             last_start, ", past the input's ", input, " pixels"));
}

}  // namespace

Status CheckInputFold(const InputFold& f) {
  OPUC_RETURN_IF_ERROR(InRange("kernel_h", f.kernel_h, 1, kMaxFoldWindow));
  OPUC_RETURN_IF_ERROR(InRange("kernel_w", f.kernel_w, 1, kMaxFoldWindow));
  OPUC_RETURN_IF_ERROR(InRange("stride_h", f.stride_h, 1, kMaxFoldWindow));
  OPUC_RETURN_IF_ERROR(InRange("stride_w", f.stride_w, 1, kMaxFoldWindow));
  OPUC_RETURN_IF_ERROR(InRange("pad_top", f.pad_top, 0, f.kernel_h - 1));
  OPUC_RETURN_IF_ERROR(InRange("pad_left", f.pad_left, 0, f.kernel_w - 1));
  OPUC_RETURN_IF_ERROR(InRange("pixels", f.pixels, 1, 2));
  if (f.folded_channels() > kMaxFoldedChannels)
    return InvalidArgument(Cat("fold: ", f.taps(), " taps of ", f.in_c, " channels make ",
                               f.folded_channels(), " channels; at most ", kMaxFoldedChannels));
  OPUC_RETURN_IF_ERROR(CheckAxis("out_h", f.out_h, f.stride_h, f.pad_top, f.in_h));
  return CheckAxis("out_w", f.out_w, f.stride_w, f.pad_left, f.in_w);
}

}  // namespace opuc
