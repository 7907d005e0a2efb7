//===- opuc/ir/graph_builder.h - Build graphs with inferred types -*- C++ -*-===//
//
// Builds a graph op by op, naming each op's output after the op and taking
// its type from shape inference. Errors are sticky: after the first one every
// call is a no-op returning kNoTensor, and Finish() reports it, so a sequence
// of calls needs one check at the end.
//
//   GraphBuilder b("tiny");
//   TensorId x = b.Input("x", DType::kF32, {1, 8, 8, 3});
//   TensorId w = b.Constant("w", DType::kF32, {4, 3, 3, 3}, weights);
//   TensorId y = b.Op(OpKind::kConv2D, "conv", {x, w}, attrs);
//   b.Output(y);
//   Expected<Graph> graph = std::move(b).Finish();
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_GRAPH_BUILDER_H
#define OPUC_IR_GRAPH_BUILDER_H

#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc {

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string graph_name);

  TensorId Input(std::string name, DType dtype, Shape shape);
  TensorId Constant(std::string name, DType dtype, Shape shape, ConstantData data);
  /// A float32 constant holding `values` (copied).
  TensorId ConstantF32(std::string name, Shape shape, const std::vector<float>& values);
  /// Adds a node whose single output is a new tensor called `name`.
  TensorId Op(OpKind op, std::string name, std::vector<TensorId> inputs, Attributes attrs = {});
  void Output(TensorId id);
  void Metadata(std::string key, std::string value);

  /// The graph so far, with the types inference gave each tensor.
  const Graph& graph() const { return graph_; }
  /// The first error so far, or ok.
  const Status& status() const { return status_; }

  /// Verifies and returns the graph, or the first error.
  Expected<Graph> Finish() &&;

 private:
  Graph graph_;
  Status status_;
};

}  // namespace opuc

#endif  // OPUC_IR_GRAPH_BUILDER_H
