//===- opuc/program/activation_layout.h - Activations in DRAM ----*- C++ -*-===//
//
// How a program lays out each activation it moves between the OPU and the
// host: codegen places them, the program records them, the runtime writes
// inputs and reads results through them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_ACTIVATION_LAYOUT_H
#define OPUC_PROGRAM_ACTIVATION_LAYOUT_H

#include <algorithm>
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
/// H x W pixels of L bytes. With a `granule` g (compact pixels, the
/// array's Co), the last block's pixels take only ceil(its channels / g)
/// x g bytes (24 channels: 32 bytes, not 64), the load engine spreading
/// them over the lanes and the store engine packing them.
/// A rank-2 [N, C] tensor is [1, 1, N, C]. A
/// folded input (input_fold.h) is laid out as its folded map: H x W the
/// conv's output pixels, C its taps times the input's channels.
struct ActivationLayout {
  TensorId tensor = kNoTensor;
  int64_t address = 0;
  int64_t height = 1, width = 1, channels = 1;  ///< As in DRAM.
  int64_t lanes = 1;                            ///< L.
  DType format = DType::kI8;
  int64_t granule = 0;  ///< Compact pixels' granule in bytes; 0: L-byte pixels.
  std::optional<InputFold> fold;
  /// A map of one channel laid out with `pack` pixels of a row as one
  /// pixel of `pack` channels (PackLayout): width is the map's / pack.
  /// Its element order is the map's, and with compact pixels of `pack`
  /// bytes its bytes are the map's, a byte a pixel.
  int64_t pack = 1;
  /// Its channels (at most granule / 2, one compact granule a pixel) stored
  /// twice (DoubleLayout): channel c in byte c and byte granule / 2 + c of
  /// each pixel, so that a depthwise window takes two pixels an entry
  /// (docs/codegen.md, "Doubled maps").
  bool doubled = false;

  /// The tensor's elements (the input's, when folded).
  int64_t elements() const {
    return fold ? fold->in_h * fold->in_w * fold->in_c : height * width * channels;
  }

  int64_t planes() const { return format == DType::kI16 ? 2 : 1; }
  int64_t blocks() const { return (channels + lanes - 1) / lanes; }
  /// DRAM bytes of one pixel of `block`: L, or the last block's compact
  /// pixel (a whole number of granules).
  int64_t PixelBytes(int64_t block) const {
    if (granule <= 0 || block + 1 < blocks()) return lanes;
    const int64_t left = channels - block * lanes;
    return std::min(lanes, (left + granule - 1) / granule * granule);
  }
  /// The ISA's `granules` of a Load or Store of `block`: 0 for L bytes.
  int64_t Granules(int64_t block) const {
    return PixelBytes(block) < lanes ? PixelBytes(block) / granule : 0;
  }
  /// A plane's bytes, to a whole beat of L: an i16 map's low plane starts
  /// on a beat, or each of its beats would touch two DRAM words.
  int64_t PlaneBytes() const {
    const int64_t bytes = ((blocks() - 1) * lanes + PixelBytes(blocks() - 1)) * height * width;
    return (bytes + lanes - 1) / lanes * lanes;
  }
  int64_t bytes() const { return planes() * PlaneBytes(); }
  /// Byte address of lane 0 of pixel (y, x) of a block in a plane.
  int64_t PixelAddress(int64_t plane, int64_t block, int64_t y, int64_t x) const {
    return address + plane * PlaneBytes() + block * height * width * lanes +
           (y * width + x) * PixelBytes(block);
  }
};

/// The most granules a compact pixel takes: a Load's and a Store's
/// `granules` field (docs/isa.md) has two bits.
inline constexpr int64_t kMaxPixelGranules = 3;

/// Makes `layout`'s last channel block compact, in granules of `granule`
/// bytes (the array's Co, which divides L), where that saves bytes and a
/// Load or Store can move the pixel (kMaxPixelGranules); else leaves it.
void CompactPixels(ActivationLayout& layout, int64_t granule);

/// The layout of `tensor` (shape [1, H, W, C] or [N, C], a quantized
/// format) at `address`; Unsupported naming the tensor otherwise.
Expected<ActivationLayout> LayoutActivation(const Graph& graph, TensorId tensor, int64_t lanes,
                                            int64_t address);

/// Lays `layout` (unfolded) out as `fold`'s folded map, the fold's input
/// geometry taken from it; the errors of CheckInputFold.
Status FoldLayout(ActivationLayout& layout, InputFold fold);

/// Lays `layout` (one channel, width a multiple of `pack`) out with `pack`
/// pixels of a row as one pixel of `pack` channels; InvalidArgument naming
/// the tensor otherwise. docs/codegen.md, "Packed rows".
Status PackLayout(ActivationLayout& layout, int64_t pack);

/// Stores `layout`'s channels twice a pixel (ActivationLayout::doubled);
/// InvalidArgument naming the tensor unless it is an unfolded, unpacked
/// i8 or u8 map whose pixels are one compact granule of at least twice its
/// channels.
Status DoubleLayout(ActivationLayout& layout);

/// Writes `value` (the tensor's dtype and shape) into `dram` at its layout,
/// folded when the layout is (taps outside the input are 0), each channel
/// twice when it is doubled.
Status WriteActivation(const ActivationLayout& layout, const HostTensor& value,
                       std::vector<uint8_t>& dram);
/// Reads the tensor back from `dram`. From a folded layout, an input
/// element no window reads (past the last VALID window) reads as 0.
Expected<HostTensor> ReadActivation(const ActivationLayout& layout, const Shape& shape,
                                    const std::vector<uint8_t>& dram);

}  // namespace opuc

#endif  // OPUC_PROGRAM_ACTIVATION_LAYOUT_H
