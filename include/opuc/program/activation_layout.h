//===- opuc/program/activation_layout.h - Activations in DRAM ----*- C++ -*-===//
//
// How a program lays out each activation it moves between the OPU and the
// host: codegen places them, the program records them, the runtime writes
// inputs and reads results through them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_ACTIVATION_LAYOUT_H
#define OPUC_PROGRAM_ACTIVATION_LAYOUT_H

#include <cstdint>
#include <optional>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/program/input_fold.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// Where an activation lives in DRAM (docs/isa.md, "DRAM layout"): planes
/// (2 for i16: high bytes, then low bytes) x ceil(C / L) channel blocks x
/// H x W pixels of L bytes. A rank-2 [N, C] tensor is [1, 1, N, C]. A
/// folded input (input_fold.h) is laid out as its folded map: H x W the
/// conv's output pixels, C its taps times the input's channels.
struct ActivationLayout {
  TensorId tensor = kNoTensor;
  int64_t address = 0;
  int64_t height = 1, width = 1, channels = 1;  ///< As in DRAM.
  int64_t lanes = 1;                            ///< L.
  DType format = DType::kI8;
  std::optional<InputFold> fold;

  /// The tensor's elements (the input's, when folded).
  int64_t elements() const {
    return fold ? fold->in_h * fold->in_w * fold->in_c : height * width * channels;
  }

  int64_t planes() const { return format == DType::kI16 ? 2 : 1; }
  int64_t blocks() const { return (channels + lanes - 1) / lanes; }
  int64_t bytes() const { return planes() * blocks() * height * width * lanes; }
  /// Byte address of lane 0 of pixel (y, x) of a block in a plane.
  int64_t PixelAddress(int64_t plane, int64_t block, int64_t y, int64_t x) const {
    return address + ((plane * blocks() + block) * height + y) * width * lanes + x * lanes;
  }
};

/// The layout of `tensor` (shape [1, H, W, C] or [N, C], a quantized
/// format) at `address`; Unsupported naming the tensor otherwise.
Expected<ActivationLayout> LayoutActivation(const Graph& graph, TensorId tensor, int64_t lanes,
                                            int64_t address);

/// Lays `layout` (unfolded) out as `fold`'s folded map, the fold's input
/// geometry taken from it; the errors of CheckInputFold.
Status FoldLayout(ActivationLayout& layout, InputFold fold);

/// Writes `value` (the tensor's dtype and shape) into `dram` at its layout,
/// folded when the layout is (taps outside the input are 0).
Status WriteActivation(const ActivationLayout& layout, const HostTensor& value,
                       std::vector<uint8_t>& dram);
/// Reads the tensor back from `dram`. From a folded layout, an input
/// element no window reads (past the last VALID window) reads as 0.
Expected<HostTensor> ReadActivation(const ActivationLayout& layout, const Shape& shape,
                                    const std::vector<uint8_t>& dram);

}  // namespace opuc

#endif  // OPUC_PROGRAM_ACTIVATION_LAYOUT_H
