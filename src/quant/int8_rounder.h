//===- src/quant/int8_rounder.h - quantize(v, f) at one length, fast -*- C++ -*-===//
//
// The weight quantizer rounds every weight at several candidate lengths;
// QuantizeToInt8 spends a libm ldexp and floor on each (the portable x86-64
// baseline has no floor instruction). At one length the scale is a power
// of two, so v·2^f is the same exact product, and once it is limited to
// [−256, 256] (which saturation to int8 would undo anyway) the nearest
// integer (adding and taking away 1.5·2^52, whose unit is 1) and a
// correction give the floor: double arithmetic and compares only, which
// GCC vectorizes (under -fno-trapping-math) where a conversion to int32
// kept the loops scalar.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_INT8_ROUNDER_H
#define OPUC_SRC_QUANT_INT8_ROUNDER_H

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace opuc::quant {

/// QuantizeToInt8(v, f) and its value q·2^−f, for one f.
class Int8Rounder {
 public:
  explicit Int8Rounder(int f) : scale_(std::ldexp(1.0, f)), step_(std::ldexp(1.0, -f)) {}

  int8_t operator()(double v) const { return static_cast<int8_t>(Quantized(v, scale_)); }

  /// SatInt8(Rhu(y)) as a double, for any y but NaN (without branches on
  /// the value: callers vectorize it).
  static double Saturated(double y) {
    constexpr double kShift = 6755399441055744.0;  // 1.5·2^52
    y = std::min(256.0, std::max(-256.0, y));
    const double nearest = (y + kShift) - kShift;  // exact: |y| ≤ 256
    const double floor = nearest - (nearest > y ? 1.0 : 0.0);
    const double rounded = floor + (y - floor >= 0.5 ? 1.0 : 0.0);  // half up
    return std::min(127.0, std::max(-128.0, rounded));
  }

  /// QuantizeToInt8(v, f) as a double, at scale = 2^f: NaN gives 0. Without
  /// a branch (the rounding is made either way), so that loops over many
  /// values, each at its own scale, vectorize.
  static double Quantized(double v, double scale) {
    const double q = Saturated(v * scale);
    return v == v ? q : 0.0;
  }

  /// The rounded value as a real: q·2^−f (exact).
  double Value(double v) const { return Quantized(v, scale_) * step_; }

 private:
  double scale_, step_;
};

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_INT8_ROUNDER_H
