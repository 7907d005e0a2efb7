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
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// Where an activation lives in DRAM (docs/isa.md, "DRAM layout"): planes
/// (2 for i16: high bytes, then low bytes) x ceil(C / L) channel blocks x
/// H x W pixels of L bytes. A rank-2 [N, C] tensor is [1, 1, N, C].
struct ActivationLayout {
  TensorId tensor = kNoTensor;
  int64_t address = 0;
  int64_t height = 1, width = 1, channels = 1;
  int64_t lanes = 1;  ///< L.
  DType format = DType::kI8;

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

/// Writes `value` (the tensor's dtype and shape) into `dram` at its layout.
Status WriteActivation(const ActivationLayout& layout, const HostTensor& value,
                       std::vector<uint8_t>& dram);
/// Reads the tensor back from `dram`.
Expected<HostTensor> ReadActivation(const ActivationLayout& layout, const Shape& shape,
                                    const std::vector<uint8_t>& dram);

}  // namespace opuc

#endif  // OPUC_PROGRAM_ACTIVATION_LAYOUT_H
