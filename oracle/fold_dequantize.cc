//===- oracle/fold_dequantize.cc - Float16 weights made float32 -----===//
#include "oracle/fold_dequantize.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "opuc/tensor_io/half.h"
#include "tflite_oracle_generated.h"

namespace opuc::oracle {
namespace {

namespace tfl = ::opuc::oracle_tflite;

// TFLite reads the larger of the legacy byte and the int code.
tfl::BuiltinOperator CodeOf(const tfl::OperatorCodeT& code) {
  return std::max(static_cast<tfl::BuiltinOperator>(code.deprecated_builtin_code),
                  code.builtin_code);
}

std::string Where(std::string_view name, size_t subgraph, size_t op) {
  return std::string(name) + ": subgraph " + std::to_string(subgraph) + ": operator " +
         std::to_string(op) + " (DEQUANTIZE)";
}

// The float16 constant that operator `op` dequantizes, or nullptr when its
// input is not one (then the operator stays).
const tfl::BufferT* HalfConstantInput(const tfl::ModelT& model, const tfl::SubGraphT& graph,
                                      const tfl::OperatorT& op) {
  if (op.inputs.size() != 1 || op.outputs.size() != 1) return nullptr;
  const int32_t in = op.inputs[0];
  if (in < 0 || static_cast<size_t>(in) >= graph.tensors.size()) return nullptr;
  const tfl::TensorT& tensor = *graph.tensors[static_cast<size_t>(in)];
  if (tensor.type != tfl::TensorType::FLOAT16 || tensor.sparsity) return nullptr;
  if (tensor.buffer == 0 || tensor.buffer >= model.buffers.size()) return nullptr;
  const tfl::BufferT& buffer = *model.buffers[tensor.buffer];
  if (buffer.data.empty() && buffer.offset <= 1) return nullptr;
  return &buffer;
}

// Gives the output of DEQUANTIZE `op` a float32 buffer with the values of `half`.
Status Fold(tfl::ModelT& model, tfl::SubGraphT& graph, const tfl::OperatorT& op,
            const tfl::BufferT& half, const std::string& where) {
  if (half.offset > 1)
    return Unsupported(where + ": the float16 constant is stored outside the FlatBuffer");
  const int32_t out = op.outputs[0];
  if (out < 0 || static_cast<size_t>(out) >= graph.tensors.size())
    return InvalidArgument(where + ": output tensor " + std::to_string(out) + " is out of range");
  tfl::TensorT& output = *graph.tensors[static_cast<size_t>(out)];
  const tfl::TensorT& input = *graph.tensors[static_cast<size_t>(op.inputs[0])];
  if (output.type != tfl::TensorType::FLOAT32 || output.shape != input.shape)
    return InvalidArgument(where + ": output tensor '" + output.name +
                           "' is not FLOAT32 of the input's shape");
  size_t elements = 1;
  for (int32_t d : input.shape) {
    if (d < 0)
      return InvalidArgument(where + ": tensor '" + input.name + "' has a negative extent");
    elements *= static_cast<size_t>(d);
  }
  if (half.data.size() != elements * 2)
    return InvalidArgument(where + ": tensor '" + input.name + "' holds " +
                           std::to_string(half.data.size()) + " bytes; its shape needs " +
                           std::to_string(elements * 2));
  auto folded = std::make_unique<tfl::BufferT>();
  folded->data.resize(elements * 4);
  for (size_t i = 0; i < elements; ++i) {
    uint16_t bits = 0;
    std::memcpy(&bits, half.data.data() + 2 * i, 2);  // little-endian, as the file
    const float value = HalfToFloat(bits);
    std::memcpy(folded->data.data() + 4 * i, &value, 4);
  }
  output.buffer = static_cast<uint32_t>(model.buffers.size());
  model.buffers.push_back(std::move(folded));
  return OkStatus();
}

}  // namespace

Expected<FoldedModel> FoldDequantize(const std::vector<uint8_t>& bytes, std::string_view name) {
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (!tfl::VerifyModelBuffer(verifier))
    return InvalidArgument(std::string(name) + ": not a valid TFLite FlatBuffer");
  std::unique_ptr<tfl::ModelT> model = tfl::UnPackModel(bytes.data());

  FoldedModel result;
  for (size_t s = 0; s < model->subgraphs.size(); ++s) {
    tfl::SubGraphT& graph = *model->subgraphs[s];
    std::vector<std::unique_ptr<tfl::OperatorT>> kept;
    for (size_t i = 0; i < graph.operators.size(); ++i) {
      std::unique_ptr<tfl::OperatorT>& op = graph.operators[i];
      const bool dequantize =
          op->opcode_index < model->operator_codes.size() &&
          CodeOf(*model->operator_codes[op->opcode_index]) == tfl::BuiltinOperator::DEQUANTIZE;
      const tfl::BufferT* half = dequantize ? HalfConstantInput(*model, graph, *op) : nullptr;
      if (half == nullptr) {
        kept.push_back(std::move(op));
        continue;
      }
      // Fold appends to model->buffers, which moves the unique_ptrs, not the
      // BufferT that `half` points to.
      Status folded = Fold(*model, graph, *op, *half, Where(name, s, i));
      if (!folded.ok()) return folded;
      ++result.folded;
    }
    graph.operators = std::move(kept);
  }

  flatbuffers::FlatBufferBuilder builder(bytes.size() * 3);
  tfl::FinishModelBuffer(builder, tfl::Model::Pack(builder, model.get()));
  result.bytes.assign(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
  return result;
}

}  // namespace opuc::oracle
