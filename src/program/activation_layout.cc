//===- src/program/activation_layout.cc - Activations in DRAM ------------===//
#include "opuc/program/activation_layout.h"

#include "support/format.h"

namespace opuc {
namespace {

int64_t Element(const HostTensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::kU8: return t.data<uint8_t>()[i];
    case DType::kI16: return t.data<int16_t>()[i];
    default: return t.data<int8_t>()[i];
  }
}

void SetElement(HostTensor& t, int64_t i, int64_t v) {
  switch (t.dtype()) {
    case DType::kU8: t.data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    case DType::kI16: t.data<int16_t>()[i] = static_cast<int16_t>(v); break;
    default: t.data<int8_t>()[i] = static_cast<int8_t>(v); break;
  }
}

// Calls fn(element index, byte address of its lane, plane) for every
// channel of every pixel and plane of the layout; the index is -1 for a
// folded tap outside the input.
template <typename Fn>
void ForEachByte(const ActivationLayout& l, Fn fn) {
  for (int64_t p = 0; p < l.planes(); ++p)
    for (int64_t y = 0; y < l.height; ++y)
      for (int64_t x = 0; x < l.width; ++x)
        for (int64_t c = 0; c < l.channels; ++c)
          fn(l.fold ? l.fold->Source(y, x, c) : ((y * l.width) + x) * l.channels + c,
             l.PixelAddress(p, c / l.lanes, y, x) + c % l.lanes, p);
}

}  // namespace

Expected<ActivationLayout> LayoutActivation(const Graph& graph, TensorId tensor, int64_t lanes,
                                            int64_t address) {
  const Tensor& t = graph.tensor(tensor);
  if (!IsQuantizedFormat(t.dtype))
    return Unsupported(Cat("tensor ", tensor, " '", t.name, "' is ", DTypeName(t.dtype),
                           "; the OPU reads and writes i8, u8 and i16 (quantize the model)"));
  ActivationLayout l;
  l.tensor = tensor;
  l.address = address;
  l.lanes = lanes;
  l.format = t.dtype;
  const Shape& s = t.shape;
  if (s.size() == 4 && s[0] == 1) {
    l.height = s[1];
    l.width = s[2];
    l.channels = s[3];
  } else if (s.size() == 2) {
    l.width = s[0];
    l.channels = s[1];
  } else {
    return Unsupported(Cat("tensor ", tensor, " '", t.name, "' has shape ", ShapeToString(s),
                           "; the OPU stores [1, H, W, C] and [N, C] maps"));
  }
  return l;
}

void CompactPixels(ActivationLayout& layout, int64_t granule) {
  if (granule <= 0 || layout.lanes % granule != 0) return;
  ActivationLayout compact = layout;
  compact.granule = granule;
  const int64_t pixel = compact.PixelBytes(compact.blocks() - 1);
  if (pixel < layout.lanes && pixel / granule <= kMaxPixelGranules) layout.granule = granule;
}

Status FoldLayout(ActivationLayout& layout, InputFold fold) {
  if (layout.fold) return InvalidArgument(Cat("tensor ", layout.tensor, " is folded twice"));
  fold.in_h = layout.height;
  fold.in_w = layout.width;
  fold.in_c = layout.channels;
  OPUC_RETURN_IF_ERROR(CheckInputFold(fold));
  layout.height = fold.out_h;
  layout.width = fold.folded_w();
  layout.channels = fold.folded_channels();
  layout.fold = fold;
  return OkStatus();
}

Status PackLayout(ActivationLayout& layout, int64_t pack) {
  if (pack < 2 || pack > layout.lanes || layout.channels != 1 || layout.fold || layout.pack != 1 ||
      layout.width % pack != 0)
    return InvalidArgument(Cat("tensor ", layout.tensor, " (", layout.height, "x", layout.width,
                               "x", layout.channels, ") cannot pack ", pack,
                               " pixels a pixel: that takes one channel, an unfolded map "
                               "whose width is a multiple of the pack, and 2 to ",
                               layout.lanes, " (L) pixels"));
  layout.width /= pack;
  layout.channels = pack;
  layout.pack = pack;
  return OkStatus();
}

Status DoubleLayout(ActivationLayout& layout) {
  if (layout.doubled || layout.fold || layout.pack != 1 || layout.planes() != 1 ||
      layout.granule <= 0 || layout.blocks() != 1 || layout.PixelBytes(0) != layout.granule ||
      2 * layout.channels > layout.granule)
    return InvalidArgument(Cat("tensor ", layout.tensor, " (", layout.height, "x", layout.width,
                               "x", layout.channels,
                               ") cannot store its channels twice: that "
                               "takes an unfolded, unpacked 8-bit map whose compact pixels are "
                               "one granule of at least twice its channels"));
  layout.doubled = true;
  return OkStatus();
}

Status WriteActivation(const ActivationLayout& layout, const HostTensor& value,
                       std::vector<uint8_t>& dram) {
  if (value.dtype() != layout.format || value.elements() != layout.elements())
    return InvalidArgument(Cat("a ", DTypeName(value.dtype()), " value of ", value.elements(),
                               " elements does not fit tensor ", layout.tensor, "'s layout"));
  if (layout.address + layout.bytes() > static_cast<int64_t>(dram.size()))
    return InvalidArgument(Cat("tensor ", layout.tensor, "'s region ends past the DRAM image"));
  const bool wide = layout.planes() == 2;
  ForEachByte(layout, [&](int64_t i, int64_t at, int64_t plane) {
    const int64_t v = i < 0 ? 0 : Element(value, i);
    // i16: plane 0 holds the high byte, plane 1 the low byte.
    const int64_t byte = wide && plane == 0 ? v >> 8 : v;
    dram[static_cast<size_t>(at)] = static_cast<uint8_t>(byte & 255);
    if (layout.doubled)
      dram[static_cast<size_t>(at + layout.granule / 2)] = dram[static_cast<size_t>(at)];
  });
  return OkStatus();
}

Expected<HostTensor> ReadActivation(const ActivationLayout& layout, const Shape& shape,
                                    const std::vector<uint8_t>& dram) {
  OPUC_ASSIGN_OR_RETURN(HostTensor value, HostTensor::Zeros(layout.format, shape));
  if (value.elements() != layout.elements() ||
      layout.address + layout.bytes() > static_cast<int64_t>(dram.size()))
    return InvalidArgument(Cat("tensor ", layout.tensor, "'s layout does not match its shape"));
  std::vector<int64_t> high(static_cast<size_t>(value.elements()), 0);
  ForEachByte(layout, [&](int64_t i, int64_t at, int64_t plane) {
    if (i < 0) return;  // a tap outside the input
    const uint8_t byte = dram[static_cast<size_t>(at)];
    if (layout.planes() == 2 && plane == 0) {
      high[static_cast<size_t>(i)] = static_cast<int8_t>(byte);
    } else if (layout.planes() == 2) {
      SetElement(value, i, high[static_cast<size_t>(i)] * 256 + byte);
    } else {
      SetElement(value, i, layout.format == DType::kU8 ? byte : static_cast<int8_t>(byte));
    }
  });
  return value;
}

}  // namespace opuc
