//===- src/codegen/input_blocks.cc - Concat at memory read ------------===//
#include "input_blocks.h"

#include "group_reader.h"
#include "support/format.h"

namespace opuc::codegen {

std::vector<InputBlockSource> InputBlockSources(const InnerProductGroup& g, int64_t L) {
  std::vector<InputBlockSource> blocks;
  const std::vector<InputPiece> one = {{g.input, g.in_c}};
  const std::vector<InputPiece>& pieces = g.pieces.empty() ? one : g.pieces;
  int64_t first = 0;
  for (size_t k = 0; k < pieces.size(); ++k) {
    for (int64_t b = 0; b * L < pieces[k].channels; ++b)
      blocks.push_back({k, b, first + b * L, std::min(L, pieces[k].channels - b * L)});
    first += pieces[k].channels;
  }
  return blocks;
}

bool InputBlocksLineUp(const InnerProductGroup& g, int64_t L) {
  for (size_t k = 0; k + 1 < g.pieces.size(); ++k)
    if (g.pieces[k].channels % L != 0) return false;
  return true;
}

void LineUpInputBlocks(InnerProductGroup& g, int64_t L) {
  if (!g.depthwise || InputBlocksLineUp(g, L)) return;
  g.depthwise = false;
  g.diagonal = true;
}

Status ReadConcat(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  const Tensor& out = graph.tensor(n.outputs[0]);
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  if (out.shape.size() != 4 || out.shape[0] != 1)
    return NotYet(graph, p, id, "a concat whose value is not 1xHxWxC");
  for (TensorId t : n.inputs) {
    const Tensor& piece = graph.tensor(t);
    if (piece.is_constant()) return NotYet(graph, p, id, "a constant input");
    OPUC_ASSIGN_OR_RETURN(int f, Fraction(graph, t));
    // The loads move bytes: a piece in another format or at another
    // fraction length would need a requantization the memory read lacks.
    if (f != f_out || piece.dtype != out.dtype)
      return NotYet(
          graph, p, id,
          Cat("input '", piece.name, "' is ", DTypeName(piece.dtype), " at f ", f, ", the concat ",
              DTypeName(out.dtype), " at f ", f_out, ": the memory read does not requantize"));
    g.pieces.push_back({t, piece.shape[3]});
  }
  g.input = g.output = n.outputs[0];
  return OkStatus();
}

}  // namespace opuc::codegen
