//===- src/opug/opug_writer.cc - Graph to binary .opug ----------------===//
#include "opuc/opug/opug.h"

#include "opug_attrs.h"
#include "opug_generated.h"
#include "opug_writable.h"
#include "support/format.h"
#include "support/vector_allocator.h"

namespace opuc {
namespace {

namespace fb = ::opuc::opug;

// The format stores DType by number; opuc::DType fixes the same numbers.
static_assert(static_cast<int>(fb::DType::F32) == static_cast<int>(DType::kF32));
static_assert(static_cast<int>(fb::DType::F16) == static_cast<int>(DType::kF16));
static_assert(static_cast<int>(fb::DType::I8) == static_cast<int>(DType::kI8));
static_assert(static_cast<int>(fb::DType::I16) == static_cast<int>(DType::kI16));
static_assert(static_cast<int>(fb::DType::I32) == static_cast<int>(DType::kI32));
static_assert(static_cast<int>(fb::DType::U8) == static_cast<int>(DType::kU8));
static_assert(kConstantAlignment == 16, "opug.fbs declares force_align: 16 for buffer data");

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<flatbuffers::String> String(FlatBufferBuilder& fbb, const std::string& s) {
  return fbb.CreateString(s);
}

Offset<fb::Buffer> WriteBuffer(FlatBufferBuilder& fbb, const ConstantData& data) {
  if (data.size() == 0) return fb::CreateBuffer(fbb);
  fbb.ForceVectorAlignment(data.size(), sizeof(uint8_t), kConstantAlignment);
  return fb::CreateBuffer(fbb, fbb.CreateVector(data.data(), data.size()));
}

Offset<fb::Tensor> WriteTensor(FlatBufferBuilder& fbb, const Tensor& t, uint32_t buffer) {
  const auto name = String(fbb, t.name);
  const auto shape = fbb.CreateVector(t.shape);
  Offset<fb::FixedPoint> fixed_point;
  if (!t.fixed_point.empty())
    fixed_point = fb::CreateFixedPoint(fbb, fbb.CreateVector(t.fixed_point.fraction_bits),
                                       t.fixed_point.axis);
  return fb::CreateTensor(fbb, name, static_cast<fb::DType>(t.dtype), shape, fixed_point, buffer);
}

Offset<fb::Graph> WriteGraph(FlatBufferBuilder& fbb, const Graph& graph);

Offset<fb::Node> WriteNode(FlatBufferBuilder& fbb, const Node& node) {
  // A nested table is finished before its parent starts.
  const Offset<fb::Graph> body = node.body ? WriteGraph(fbb, *node.body) : 0;
  const auto op = fbb.CreateString(OpName(node.op).data(), OpName(node.op).size());
  const auto name = String(fbb, node.name);
  const auto inputs = fbb.CreateVector(node.inputs);
  const auto outputs = fbb.CreateVector(node.outputs);
  std::vector<Offset<fb::Attr>> attrs;
  for (const auto& [attr_name, value] : node.attrs.entries())  // sorted by name
    attrs.push_back(WriteAttr(fbb, attr_name, value));
  return fb::CreateNode(fbb, op, name, inputs, outputs, fbb.CreateVector(attrs), body);
}

/// A graph, the root or a fused node's body. Buffer 0 is built first, so in
/// the root it ends the file: the last bytes are then a table the verifier
/// checks, and any truncation is detected.
Offset<fb::Graph> WriteGraph(FlatBufferBuilder& fbb, const Graph& graph) {
  std::vector<Offset<fb::Buffer>> buffers = {fb::CreateBuffer(fbb)};
  std::vector<uint32_t> buffer_of(graph.tensors.size(), 0);
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    if (!graph.tensors[i].constant) continue;
    buffer_of[i] = static_cast<uint32_t>(buffers.size());
    buffers.push_back(WriteBuffer(fbb, *graph.tensors[i].constant));
  }
  std::vector<Offset<fb::Tensor>> tensors;
  for (size_t i = 0; i < graph.tensors.size(); ++i)
    tensors.push_back(WriteTensor(fbb, graph.tensors[i], buffer_of[i]));
  std::vector<Offset<fb::Node>> nodes;
  for (const Node& node : graph.nodes) nodes.push_back(WriteNode(fbb, node));
  std::vector<Offset<fb::KeyValue>> metadata;
  for (const auto& [key, value] : graph.metadata)
    metadata.push_back(fb::CreateKeyValue(fbb, String(fbb, key), String(fbb, value)));
  return fb::CreateGraph(fbb, kOpugVersion, String(fbb, graph.name), fbb.CreateVector(tensors),
                         fbb.CreateVector(buffers), fbb.CreateVector(nodes),
                         fbb.CreateVector(graph.inputs), fbb.CreateVector(graph.outputs),
                         fbb.CreateVector(metadata));
}

/// Room for the whole file (generous per table), so that the builder never
/// grows: growing copies everything written so far, the constants included,
/// into a buffer half as large again.
size_t BytesBound(const Graph& graph) {
  size_t bytes = 1024 + static_cast<size_t>(graph.ConstantBytes());
  for (const Tensor& t : graph.tensors)
    bytes += t.name.size() + 8 * t.shape.size() + 4 * t.fixed_point.fraction_bits.size() + 128 +
             (t.constant ? kConstantAlignment + 32 : 0);
  for (const Node& node : graph.nodes)
    bytes += node.name.size() + 4 * (node.inputs.size() + node.outputs.size()) +
             128 * node.attrs.entries().size() + 128 + (node.body ? BytesBound(*node.body) : 0);
  for (const auto& [key, value] : graph.metadata) bytes += key.size() + value.size() + 16;
  return bytes;
}

}  // namespace

Expected<std::vector<uint8_t>> WriteOpug(const Graph& graph) {
  OPUC_RETURN_IF_ERROR(CheckOpugWritable(graph));
  // FlatBuffers addresses at most 2 GiB; leave room for everything but data.
  constexpr uint64_t kMaxConstantBytes = FLATBUFFERS_MAX_BUFFER_SIZE - (uint64_t{1} << 24);
  if (graph.ConstantBytes() > kMaxConstantBytes)
    return Unsupported(Cat("constants total ", graph.ConstantBytes(), " bytes; a .opug file ",
                           "holds at most ", kMaxConstantBytes));
  VectorAllocator storage;  // outlives the builder: the file is built in it
  FlatBufferBuilder fbb(BytesBound(graph), &storage);  // < 2 GiB: checked
  fb::FinishGraphBuffer(fbb, WriteGraph(fbb, graph));
  return storage.Take(fbb);
}

}  // namespace opuc
