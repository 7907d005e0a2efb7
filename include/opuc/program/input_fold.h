//===- opuc/program/input_fold.h - A first layer's taps in lanes --*- C++ -*-===//
//
// A convolution over few input channels (an image's 3) uses 3 of the
// array's L lanes per tap. Folded, the host writes its input as the
// convolution's im2col: pixel (y, x) of the folded map holds, as its
// kh·kw·C channels, the window of output pixel (y, x), tap by tap (ky, then
// kx) and each tap's C channels in order — the order of a conv2d's
// [O, kh, kw, I] weights, so the layer becomes a 1x1, stride-1 convolution
// over the folded map with the same weight bytes. Taps outside the input
// hold 0, the integer every conv pads with (zero point 0, numerics.md).
//
// With `pixels` 2 (pixel pairs), folded pixel (y, x) holds the windows of
// output pixels (y, 2x) and (y, 2x + 1) together: kernel_w + stride_w
// columns of taps, so that one pass of the array makes both pixels (half
// its rows each, stored by a Store's `pair`).
//
// The program records the fold on the input's activation (schema/opup.fbs,
// InputFold), so that every device and firmware writes it the same way: the
// runtime's WriteActivation folds, ReadActivation unfolds (the ref and cpu
// devices read the input back). docs/codegen.md, "First-layer folding".
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_INPUT_FOLD_H
#define OPUC_PROGRAM_INPUT_FOLD_H

#include <cstdint>

#include "opuc/status.h"

namespace opuc {

struct InputFold {
  int64_t kernel_h = 1, kernel_w = 1;
  int64_t stride_h = 1, stride_w = 1;
  int64_t pad_top = 0, pad_left = 0;  ///< Rows and columns of 0 before the input.
  int64_t out_h = 1, out_w = 1;       ///< The conv's output pixels.
  int64_t pixels = 1;                 ///< Output pixels along x a folded pixel holds: 1 or 2.
  // The input as the graph has it (filled from its tensor).
  int64_t in_h = 1, in_w = 1, in_c = 1;

  bool operator==(const InputFold& o) const {
    return kernel_h == o.kernel_h && kernel_w == o.kernel_w && stride_h == o.stride_h &&
           stride_w == o.stride_w && pad_top == o.pad_top && pad_left == o.pad_left &&
           out_h == o.out_h && out_w == o.out_w && in_h == o.in_h && in_w == o.in_w &&
           in_c == o.in_c && pixels == o.pixels;
  }
  /// Columns of taps a folded pixel holds: its pixels' windows together.
  int64_t span_w() const { return kernel_w + (pixels - 1) * stride_w; }
  int64_t taps() const { return kernel_h * span_w(); }
  int64_t folded_channels() const { return taps() * in_c; }
  /// The folded map's width: ⌈out_w / pixels⌉.
  int64_t folded_w() const { return (out_w + pixels - 1) / pixels; }
  /// The input element (flat index into [H, W, C]) that channel `ch` of
  /// folded pixel (y, x) holds, or -1 for a tap outside the input (0).
  int64_t Source(int64_t y, int64_t x, int64_t ch) const {
    const int64_t tap = ch / in_c, c = ch % in_c;
    const int64_t iy = y * stride_h - pad_top + tap / span_w();
    const int64_t ix = x * pixels * stride_w - pad_left + tap % span_w();
    if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) return -1;
    return (iy * in_w + ix) * in_c + c;
  }
};

/// Checks a fold read from a program against its input's geometry: every
/// field in range, and each window starting inside the padded input, with
/// an error naming the field ("fold.stride_h is 0; expected 1 to 64").
Status CheckInputFold(const InputFold& fold);

}  // namespace opuc

#endif  // OPUC_PROGRAM_INPUT_FOLD_H
