//===- src/opug/opug_reader.cc - Binary .opug to Graph ----------------===//
//
// Three stages, each only trusting what the previous one established: the
// FlatBuffers verifier (every offset and vector lies inside the buffer), our
// semantic checks (indices in range, sizes consistent, names known), and
// Verify(graph) on the result (SSA, order, shapes, attributes).
//
//===----------------------------------------------------------------------===//
#include "opuc/opug/opug.h"

#include <limits>

#include "opuc/file_io/aligned_bytes.h"
#include "opuc/ir/verifier.h"
#include "opug_attrs.h"
#include "opug_generated.h"
#include "support/fb_damage.h"
#include "support/fb_vector.h"
#include "support/format.h"

namespace opuc {
namespace {

namespace fb = ::opuc::opug;

std::string Str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

template <typename T>
flatbuffers::uoffset_t Count(const flatbuffers::Vector<T>* v) {
  return v ? v->size() : 0;
}

/// "tensor 3 'conv1/w'", "node 2 'pool'": how messages name a table entry.
std::string Where(std::string_view table, size_t index, const flatbuffers::String* name) {
  return Cat(table, " ", index, " '", Str(name), "'");
}

/// The part of a graph that fails verification, as precisely as it can be named.
std::optional<std::string> FindDamage(const uint8_t* data, size_t size) {
  const DamageFinder find(data, size);
  const fb::Graph* graph = find.Root<fb::Graph>();
  if (graph == nullptr) return "the root offset or the Graph table's header";
  const auto in_node = [&](const fb::Node* node) {
    std::optional<std::string> at = find.Tables<fb::Attr>(node, fb::Node::VT_ATTRS, "attrs");
    return at ? at : find.OneTable<fb::Graph>(node, fb::Node::VT_BODY, "body");
  };
  std::optional<std::string> at = find.Tables<fb::Tensor>(graph, fb::Graph::VT_TENSORS, "tensors");
  if (!at) at = find.Tables<fb::Buffer>(graph, fb::Graph::VT_BUFFERS, "buffers");
  if (!at) at = find.Tables<fb::Node>(graph, fb::Graph::VT_NODES, "nodes", in_node);
  if (!at) at = find.Tables<fb::KeyValue>(graph, fb::Graph::VT_METADATA, "metadata");
  return at;
}

Status CheckHeader(const uint8_t* data, size_t size) {
  // The identifier sits after the 4-byte root offset.
  if (size < 8)
    return InvalidArgument(Cat(size, " bytes is too short for a .opug file (at least 8)"));
  if (!fb::GraphBufferHasIdentifier(data))
    return InvalidArgument(Cat("file identifier is ",
                               Quote(std::string_view(reinterpret_cast<const char*>(data) + 4, 4)),
                               "; expected \"OPUG\" (not a .opug file)"));
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return InvalidArgument(
        Cat(size, " bytes exceeds the FlatBuffers limit of ", FLATBUFFERS_MAX_BUFFER_SIZE));
  flatbuffers::Verifier verifier(data, size);
  if (!fb::VerifyGraphBuffer(verifier))
    return InvalidArgument(VerificationFailure(FindDamage(data, size), "Graph"));
  return OkStatus();
}

/// Reads one verified buffer into graph pieces, checking as it goes.
class Reader {
 public:
  Reader(std::shared_ptr<const void> owner, const fb::Graph& root)
      : owner_(std::move(owner)), root_(root) {}

  Expected<Graph> Read();

 private:
  Status CheckBuffers() const;
  Status ReadFixedPoint(const fb::FixedPoint& fp, Tensor* tensor) const;
  Expected<Tensor> ReadTensor(const fb::Tensor& t) const;
  Expected<Node> ReadNode(const fb::Node& n) const;
  Status CheckTensorId(int32_t id, bool absent_ok, std::string_view role, size_t i) const;
  Expected<std::vector<TensorId>> ReadIds(const flatbuffers::Vector<int32_t>* ids, bool absent_ok,
                                          std::string_view role) const;

  std::shared_ptr<const void> owner_;
  const fb::Graph& root_;
  size_t num_tensors_ = Count(root_.tensors());
  size_t num_buffers_ = Count(root_.buffers());
};

Status Reader::CheckBuffers() const {
  if (num_buffers_ == 0) return OkStatus();
  const auto* data = root_.buffers()->Get(0)->data();
  if (Count(data) != 0)
    return InvalidArgument(Cat("buffer 0 holds ", Count(data),
                               " bytes; it must be empty (buffer 0 means \"no data\")"));
  return OkStatus();
}

Status Reader::ReadFixedPoint(const fb::FixedPoint& fp, Tensor* tensor) const {
  std::vector<int32_t> bits = CopyScalars(fp.fraction_bits());
  if (bits.empty()) return OkStatus();  // An empty list means "not quantized".
  const int32_t axis = fp.axis();
  const size_t count = bits.size();
  if (axis == -1 && count != 1)
    return InvalidArgument(Cat("fixed_point has ", count,
                               " fraction_bits; expected 1 for the whole tensor (axis -1)"));
  if (axis != -1) {
    if (axis < 0 || static_cast<size_t>(axis) >= tensor->shape.size())
      return InvalidArgument(Cat("fixed_point axis ", axis, " is out of range for shape ",
                                 ShapeToString(tensor->shape)));
    const int64_t extent = tensor->shape[static_cast<size_t>(axis)];
    if (static_cast<int64_t>(count) != extent)
      return InvalidArgument(Cat("fixed_point has ", count, " fraction_bits; expected ", extent,
                                 " (extent of axis ", axis, ")"));
  }
  tensor->fixed_point.fraction_bits = std::move(bits);
  tensor->fixed_point.axis = axis;
  return OkStatus();
}

Expected<Tensor> Reader::ReadTensor(const fb::Tensor& t) const {
  const auto raw_dtype = static_cast<int>(t.dtype());
  if (raw_dtype < 0 || raw_dtype >= kNumDTypes)
    return InvalidArgument(
        Cat("dtype ", raw_dtype, " is unknown (expected 0..", kNumDTypes - 1, ")"));
  Tensor tensor;
  tensor.name = Str(t.name());
  tensor.dtype = static_cast<DType>(raw_dtype);
  tensor.shape = CopyScalars(t.shape());
  for (int64_t extent : tensor.shape)
    if (extent < 0)
      return InvalidArgument(Cat("shape ", ShapeToString(tensor.shape), " has a negative extent"));
  const std::optional<int64_t> elements = NumElements(tensor.shape);
  const auto dsize = static_cast<int64_t>(DTypeSize(tensor.dtype));
  if (!elements || *elements > std::numeric_limits<int64_t>::max() / dsize)
    return InvalidArgument(Cat("shape ", ShapeToString(tensor.shape), " ", DTypeName(tensor.dtype),
                               " has too many elements to address"));
  if (t.fixed_point()) OPUC_RETURN_IF_ERROR(ReadFixedPoint(*t.fixed_point(), &tensor));

  const uint32_t b = t.buffer();
  if (b == 0) return tensor;
  if (b >= num_buffers_)
    return InvalidArgument(
        Cat("buffer ", b, " is out of range (the graph has ", num_buffers_, " buffers)"));
  const auto* data = root_.buffers()->Get(b)->data();
  const uint64_t want = static_cast<uint64_t>(*elements * dsize);
  if (Count(data) != want)
    return InvalidArgument(Cat("buffer ", b, " holds ", Count(data), " bytes; shape ",
                               ShapeToString(tensor.shape), " ", DTypeName(tensor.dtype), " needs ",
                               want));
  if (want == 0) {
    tensor.constant = ConstantData::Copy(nullptr, 0);
  } else if (reinterpret_cast<uintptr_t>(data->data()) % kConstantAlignment == 0) {
    tensor.constant = ConstantData::View(owner_, data->data(), data->size());
  } else {
    // Written without force_align (not by opuc): keep the constant invariant.
    tensor.constant = ConstantData::Copy(data->data(), data->size());
  }
  return tensor;
}

Status Reader::CheckTensorId(int32_t id, bool absent_ok, std::string_view role, size_t i) const {
  if (absent_ok && id == kNoTensor) return OkStatus();
  if (id >= 0 && static_cast<size_t>(id) < num_tensors_) return OkStatus();
  return InvalidArgument(Cat(role, " ", i, " is tensor ", id, ", which is out of range (",
                             num_tensors_, " tensors", absent_ok ? "; -1 marks absent" : "", ")"));
}

Expected<std::vector<TensorId>> Reader::ReadIds(const flatbuffers::Vector<int32_t>* ids,
                                                bool absent_ok, std::string_view role) const {
  std::vector<TensorId> out = CopyScalars(ids);
  for (size_t i = 0; i < out.size(); ++i)
    OPUC_RETURN_IF_ERROR(CheckTensorId(out[i], absent_ok, role, i));
  return out;
}

Expected<Node> Reader::ReadNode(const fb::Node& n) const {
  Node node;
  node.name = Str(n.name());
  const std::optional<OpKind> op = OpFromName(n.op()->string_view());
  if (!op) return InvalidArgument(Cat("unknown op '", n.op()->string_view(), "'"));
  node.op = *op;
  OPUC_ASSIGN_OR_RETURN(node.inputs, ReadIds(n.inputs(), /*absent_ok=*/true, "input"));
  OPUC_ASSIGN_OR_RETURN(node.outputs, ReadIds(n.outputs(), /*absent_ok=*/false, "output"));
  if (n.body()) {
    // A function's indices are its own; Verify checks the body again, in
    // its place, when the whole graph is read.
    Expected<Graph> body = Reader(owner_, *n.body()).Read();
    if (!body.ok()) return body.status().WithContext("body");
    node.body = std::make_shared<const Graph>(std::move(body).value());
  }
  for (flatbuffers::uoffset_t i = 0; i < Count(n.attrs()); ++i) {
    const fb::Attr& attr = *n.attrs()->Get(i);
    const std::string name = attr.name()->str();
    const std::string where = Cat("attribute ", i, " '", name, "'");
    if (node.attrs.Has(name)) return InvalidArgument(Cat(where, " appears twice"));
    AttrValue value;
    const Status read = ReadAttrValue(attr, &value);
    if (!read.ok()) return InvalidArgument(Cat(where, " ", read.message()));
    node.attrs.Set(name, std::move(value));
  }
  return node;
}

Expected<Graph> Reader::Read() {
  if (root_.version() > kOpugVersion)
    return Unsupported(Cat("format version ", root_.version(), " is newer than this opuc reads (",
                           kOpugVersion, ")"));
  OPUC_RETURN_IF_ERROR(CheckBuffers());
  Graph graph;
  graph.name = Str(root_.name());
  for (size_t i = 0; i < num_tensors_; ++i) {
    const fb::Tensor& t = *root_.tensors()->Get(static_cast<flatbuffers::uoffset_t>(i));
    Expected<Tensor> tensor = ReadTensor(t);
    if (!tensor.ok()) return tensor.status().WithContext(Where("tensor", i, t.name()));
    graph.AddTensor(std::move(tensor).value());
  }
  for (flatbuffers::uoffset_t i = 0; i < Count(root_.nodes()); ++i) {
    const fb::Node& n = *root_.nodes()->Get(i);
    Expected<Node> node = ReadNode(n);
    if (!node.ok()) return node.status().WithContext(Where("node", i, n.name()));
    graph.AddNode(std::move(node).value());
  }
  Expected<std::vector<TensorId>> inputs = ReadIds(root_.inputs(), false, "input");
  if (!inputs.ok()) return inputs.status().WithContext("graph");
  graph.inputs = std::move(inputs).value();
  Expected<std::vector<TensorId>> outputs = ReadIds(root_.outputs(), false, "output");
  if (!outputs.ok()) return outputs.status().WithContext("graph");
  graph.outputs = std::move(outputs).value();
  for (flatbuffers::uoffset_t i = 0; i < Count(root_.metadata()); ++i) {
    const fb::KeyValue& kv = *root_.metadata()->Get(i);
    graph.metadata.emplace_back(kv.key()->str(), Str(kv.value()));
  }
  OPUC_RETURN_IF_ERROR(Verify(graph));
  return graph;
}

Expected<Graph> ReadAligned(std::shared_ptr<const void> owner, const uint8_t* data, size_t size) {
  OPUC_RETURN_IF_ERROR(CheckHeader(data, size));
  Reader reader(std::move(owner), *fb::GetGraph(data));
  return reader.Read();
}

}  // namespace

Expected<Graph> ReadOpug(std::shared_ptr<const void> owner, const uint8_t* data, size_t size,
                         std::string_view source_name) {
  return ReadInPlace(std::move(owner), data, size, source_name, ReadAligned);
}

Expected<Graph> ReadOpug(const std::vector<uint8_t>& bytes, std::string_view source_name) {
  Expected<AlignedBytes> copy = CopyAligned(bytes.data(), bytes.size());
  if (!copy.ok()) return copy.status().WithContext(source_name);
  return ReadOpug(copy->owner, copy->data(), copy->size, source_name);
}

}  // namespace opuc
