//===- src/codegen/upsample_step.cc - The upsample stage --------------===//
//
// A nearest 2x upsample ends a group: the store engine writes each pixel of
// the group's last value (the pooled one after a pool) as a 2x2 block
// (docs/isa.md, Store). It moves values unchanged (numerics.md §7); when
// the graph gives the doubled map another fraction length or format, a
// compare stage requantizes the entries first, which then hold only the
// doubled map's values.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "group_reader.h"
#include "support/format.h"

namespace opuc::codegen {

Status ReadUpsample(const Graph& graph, const HwPartition& p, const HwGroup& group, NodeId id,
                    InnerProductGroup& g) {
  const Node& n = graph.node(id);
  const TensorId before = g.pool ? g.pool->tensor : g.output;
  if (n.inputs[0] != before) return NotYet(graph, p, id, "it does not read the group's last value");
  if (graph.tensor(before).shape.size() != 4)
    return NotYet(graph, p, id, "an upsample of a map that is not NHWC");
  OPUC_ASSIGN_OR_RETURN(int f_in, Fraction(graph, before));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  const DType format = graph.tensor(n.outputs[0]).dtype;
  g.upsampled = n.outputs[0];
  if (f_in == f_out && format == graph.tensor(before).dtype) return OkStatus();
  const auto& outs = group.outputs;
  if (g.pool || std::find(outs.begin(), outs.end(), before) != outs.end())
    return NotYet(
        graph, p, id,
        Cat("an upsample that requantizes (f ", f_in, " ", DTypeName(graph.tensor(before).dtype),
            " to f ", f_out, " ", DTypeName(format),
            ") after a pool or of a value that also leaves the group"));
  const IntegerBounds b = QuantizedBounds(format);
  g.post.push_back({PostStep::kClamp, {f_in - f_out, b.lo, b.hi}});
  g.out_format = format;
  return OkStatus();
}

}  // namespace opuc::codegen
