//===- src/frontend/tflite_op_context.cc - One operator, as converters see it -===//
#include "support/fb_vector.h"
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {

OpContext::OpContext(TfliteTensors& tensors, const tfl::Operator& op, std::string name)
    : tensors_(tensors), op_(op), name_(std::move(name)), inputs_(CopyScalars(op.inputs())) {}

std::string OpContext::Role(size_t i, std::string_view role) const {
  return Cat("input ", i, " (", role, ")");
}

Status OpContext::ExpectInputs(size_t min, size_t max, std::string_view roles) const {
  if (inputs_.size() >= min && inputs_.size() <= max) return OkStatus();
  const std::string want = min == max ? Cat(min) : Cat(min, " to ", max);
  return InvalidArgument(Cat("has ", inputs_.size(), " inputs; expected ", want, " (", roles, ")"));
}

bool OpContext::HasInput(size_t i) const { return i < inputs_.size() && inputs_[i] != -1; }

Expected<TensorId> OpContext::Input(size_t i, std::string_view role) {
  if (!HasInput(i)) return InvalidArgument(Cat(Role(i, role), " is missing"));
  Expected<TensorId> id = tensors_.Use(inputs_[i]);
  if (!id.ok()) return id.status().WithContext(Role(i, role));
  return id;
}

Expected<TensorId> OpContext::OptionalInput(size_t i, std::string_view role) {
  if (!HasInput(i)) return kNoTensor;
  return Input(i, role);
}

Expected<ParamTensor> OpContext::Param(size_t i, std::string_view role) const {
  if (!HasInput(i)) return InvalidArgument(Cat(Role(i, role), " is missing"));
  Expected<ParamTensor> param = tensors_.ReadParam(inputs_[i]);
  if (!param.ok())
    return param.status().WithContext(
        Cat(Role(i, role), " ", DescribeTfliteTensor(tensors_.subgraph(), inputs_[i])));
  return param;
}

Shape OpContext::OutputShape() const {
  if (!op_.outputs() || op_.outputs()->size() == 0) return {};
  const auto index = static_cast<flatbuffers::uoffset_t>(op_.outputs()->Get(0));
  Shape shape;
  for (int32_t extent : CopyScalars(tensors_.subgraph().tensors()->Get(index)->shape()))
    shape.push_back(extent);
  return shape;
}

Expected<const void*> OpContext::OptionsOfType(tfl::BuiltinOptions want, OptionsNeed need) const {
  const tfl::BuiltinOptions have = op_.builtin_options_type();
  const void* table = op_.builtin_options();
  if (have == tfl::BuiltinOptions::NONE || !table) {
    if (need == OptionsNeed::kOptional) return static_cast<const void*>(nullptr);
    return InvalidArgument(
        Cat("builtin_options is missing; expected ", tfl::EnumNameBuiltinOptions(want)));
  }
  if (have == want) return table;
  const char* have_name = tfl::EnumNameBuiltinOptions(have);
  return InvalidArgument(Cat(
      "builtin_options is ",
      have_name && *have_name ? std::string(have_name) : Cat("union type ", static_cast<int>(have)),
      "; expected ", tfl::EnumNameBuiltinOptions(want)));
}

Status OpContext::Emit(OpKind kind, std::vector<TensorId> inputs, Attributes attrs) {
  const size_t num_outputs = op_.outputs() ? op_.outputs()->size() : 0;
  if (num_outputs != 1) return InvalidArgument(Cat("has ", num_outputs, " outputs; expected 1"));
  const int32_t out_index = op_.outputs()->Get(0);
  Graph& graph = tensors_.graph();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i] != kNoTensor && graph.tensor(inputs[i]).sparsity && kind != OpKind::kDensify)
      return InvalidArgument(Cat("input ", i, " tensor '", graph.tensor(inputs[i]).name,
                                 "' is a sparse constant; only DENSIFY reads those"));
  Node node;
  node.op = kind;
  node.inputs = std::move(inputs);
  node.attrs = std::move(attrs);
  FillDefaultAttributes(kind, &node.attrs);
  InferContext infer;
  infer.attrs = &node.attrs;
  for (TensorId in : node.inputs)
    infer.inputs.push_back(in == kNoTensor ? nullptr : &graph.tensor(in));
  // Errors read "operator 3 (CONV_2D): conv2d: input 'weights' has ...".
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorType> types, InferOutputTypes(kind, infer));

  OPUC_ASSIGN_OR_RETURN(TensorId out, tensors_.DefineOutput(out_index));
  const Tensor& declared = graph.tensor(out);
  const TensorType& inferred = types.front();
  if (!(declared.type() == inferred))
    return InvalidArgument(Cat("output ", DescribeTfliteTensor(tensors_.subgraph(), out_index),
                               " is declared ", DTypeName(declared.dtype),
                               ShapeToString(declared.shape), "; the IR ", OpName(kind), " gives ",
                               DTypeName(inferred.dtype), ShapeToString(inferred.shape)));
  node.name = declared.name;
  node.outputs = {out};
  graph.AddNode(std::move(node));
  return OkStatus();
}

Expected<std::string> ActivationName(tfl::ActivationFunctionType value, std::string_view field) {
  switch (value) {
    case tfl::ActivationFunctionType::NONE: return std::string("none");
    case tfl::ActivationFunctionType::RELU: return std::string("relu");
    case tfl::ActivationFunctionType::RELU_N1_TO_1: return std::string("relu_n1_to_1");
    case tfl::ActivationFunctionType::RELU6: return std::string("relu6");
    case tfl::ActivationFunctionType::TANH: return std::string("tanh");
    case tfl::ActivationFunctionType::SIGN_BIT:
      return Unsupported(Cat(field,
                             " is SIGN_BIT; opuc supports NONE, RELU, RELU_N1_TO_1,"
                             " RELU6 and TANH"));
  }
  return InvalidArgument(
      Cat(field, " is ", static_cast<int>(value), ", which is no TFLite activation (0..5)"));
}

Expected<std::string> PaddingName(tfl::Padding value, std::string_view field) {
  switch (value) {
    case tfl::Padding::SAME: return std::string("same");
    case tfl::Padding::VALID: return std::string("valid");
  }
  return InvalidArgument(
      Cat(field, " is ", static_cast<int>(value), "; expected SAME (0) or VALID (1)"));
}

Expected<std::vector<int64_t>> PositivePair(int32_t h, std::string_view h_field, int32_t w,
                                            std::string_view w_field) {
  if (h < 1) return InvalidArgument(Cat(h_field, " is ", h, "; expected at least 1"));
  if (w < 1) return InvalidArgument(Cat(w_field, " is ", w, "; expected at least 1"));
  return std::vector<int64_t>{h, w};
}

}  // namespace opuc
