//===- src/codegen/group_reader.cc - Messages, fractions, ranges ------===//
#include "group_reader.h"

#include <algorithm>

#include "opuc/numerics/fixed_point.h"
#include "support/format.h"

namespace opuc::codegen {

std::string What(const Graph& graph, NodeId id) {
  const Node& n = graph.node(id);
  return Cat("node ", id, " '", n.name, "' (", OpName(n.op), ")");
}

Status NotYet(const Graph& graph, const HwPartition& p, NodeId id, std::string_view why) {
  const NodePlacement& place = p.nodes[static_cast<size_t>(id)];
  const std::string stage =
      place.stage >= 0 ? p.stages[static_cast<size_t>(place.stage)] : std::string("collected");
  return Unsupported(Cat(What(graph, id), " on stage ", stage, ": ", why));
}

Expected<int> Fraction(const Graph& graph, TensorId t) {
  const Tensor& tensor = graph.tensor(t);
  if (tensor.fixed_point.fraction_bits.size() != 1 || !IsQuantizedFormat(tensor.dtype))
    return InvalidArgument(
        Cat("tensor ", t, " '", tensor.name,
            "' has no per-tensor fixed point in i8, u8 or i16 (quantize the model)"));
  return tensor.fixed_point.fraction_bits[0];
}

Expected<std::pair<int64_t, int64_t>> Range(Activation a, int f, DType format,
                                            const std::string& what) {
  const IntegerBounds b = QuantizedBounds(format);
  switch (a) {
    case Activation::kNone: return std::make_pair(b.lo, b.hi);
    case Activation::kRelu: return std::make_pair(std::max<int64_t>(0, b.lo), b.hi);
    case Activation::kRelu6:
      return std::make_pair(std::max<int64_t>(0, b.lo), QuantizeTo(6.0, f, b.lo, b.hi));
    case Activation::kReluN1To1:
      return std::make_pair(QuantizeTo(-1.0, f, b.lo, b.hi), QuantizeTo(1.0, f, b.lo, b.hi));
    default: break;
  }
  return Unsupported(Cat(what, ": fused ", ActivationName(a), " is not a clamp"));
}

}  // namespace opuc::codegen
