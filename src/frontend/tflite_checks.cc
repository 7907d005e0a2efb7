//===- src/frontend/tflite_checks.cc - Semantic checks of a verified model -===//
//
// The second stage: the buffer is structurally sound; now every index the
// importer will follow is checked once, so no later code can index out of
// range. What an index points to (a tensor's type, its data size) is checked
// where it is used.
//
//===----------------------------------------------------------------------===//
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

/// The schema version opuc reads (the one every current converter writes).
constexpr uint32_t kTfliteSchemaVersion = 3;

template <typename T>
flatbuffers::uoffset_t Count(const flatbuffers::Vector<T>* v) {
  return v ? v->size() : 0;
}

Status CheckBuffers(const tfl::Model& model, size_t file_size) {
  for (flatbuffers::uoffset_t b = 0; b < Count(model.buffers()); ++b) {
    const tfl::Buffer& buffer = *model.buffers()->Get(b);
    const uint64_t offset = buffer.offset();
    const uint64_t size = buffer.size();
    if (offset <= 1) continue;  // Data inside the FlatBuffer, or none.
    if (Count(buffer.data()) != 0)
      return InvalidArgument(Cat("buffer ", b, " has both data and an offset (", offset,
                                 "); expected one or the other"));
    if (offset > file_size || size > file_size - offset)
      return InvalidArgument(Cat("buffer ", b, " spans bytes ", offset, "..+", size,
                                 " outside the file (", file_size, " bytes)"));
  }
  return OkStatus();
}

Status CheckTensorIndex(int32_t index, bool absent_ok, flatbuffers::uoffset_t num_tensors,
                        std::string_view where) {
  if (absent_ok && index == -1) return OkStatus();
  if (index >= 0 && static_cast<flatbuffers::uoffset_t>(index) < num_tensors) return OkStatus();
  return InvalidArgument(Cat(where, " is tensor ", index, ", which is out of range (", num_tensors,
                             " tensors", absent_ok ? "; -1 marks absent" : "", ")"));
}

Status CheckIndexList(const flatbuffers::Vector<int32_t>* list, bool absent_ok,
                      flatbuffers::uoffset_t num_tensors, std::string_view where) {
  for (flatbuffers::uoffset_t i = 0; i < Count(list); ++i)
    OPUC_RETURN_IF_ERROR(
        CheckTensorIndex(list->Get(i), absent_ok, num_tensors, Cat(where, " ", i)));
  return OkStatus();
}

Status CheckSubGraph(const tfl::Model& model, const tfl::SubGraph& subgraph) {
  const flatbuffers::uoffset_t num_tensors = Count(subgraph.tensors());
  const flatbuffers::uoffset_t num_buffers = Count(model.buffers());
  for (flatbuffers::uoffset_t t = 0; t < num_tensors; ++t) {
    const uint32_t b = subgraph.tensors()->Get(t)->buffer();
    if (b != 0 && b >= num_buffers)
      return InvalidArgument(Cat(DescribeTfliteTensor(subgraph, static_cast<int32_t>(t)),
                                 ": buffer ", b, " is out of range (", num_buffers, " buffers)"));
  }
  OPUC_RETURN_IF_ERROR(CheckIndexList(subgraph.inputs(), false, num_tensors, "graph input"));
  OPUC_RETURN_IF_ERROR(CheckIndexList(subgraph.outputs(), false, num_tensors, "graph output"));
  const flatbuffers::uoffset_t num_codes = Count(model.operator_codes());
  for (flatbuffers::uoffset_t o = 0; o < Count(subgraph.operators()); ++o) {
    const tfl::Operator& op = *subgraph.operators()->Get(o);
    const std::string where = Cat("operator ", o);
    if (op.opcode_index() >= num_codes)
      return InvalidArgument(Cat(where, ": opcode_index ", op.opcode_index(), " is out of range (",
                                 num_codes, " operator codes)"));
    OPUC_RETURN_IF_ERROR(CheckIndexList(op.inputs(), true, num_tensors, Cat(where, ": input")));
    OPUC_RETURN_IF_ERROR(CheckIndexList(op.outputs(), false, num_tensors, Cat(where, ": output")));
  }
  return OkStatus();
}

}  // namespace

Status CheckTfliteModel(const tfl::Model& model, size_t file_size) {
  if (model.version() != kTfliteSchemaVersion)
    return Unsupported(
        Cat("schema version is ", model.version(), "; opuc reads version ", kTfliteSchemaVersion));
  if (Count(model.subgraphs()) == 0)
    return InvalidArgument("the model has no subgraphs; expected at least one");
  if (Count(model.buffers()) > 0 && Count(model.buffers()->Get(0)->data()) != 0)
    return InvalidArgument(Cat("buffer 0 holds ", Count(model.buffers()->Get(0)->data()),
                               " bytes; it must be empty (buffer 0 means \"no data\")"));
  OPUC_RETURN_IF_ERROR(CheckBuffers(model, file_size));
  for (flatbuffers::uoffset_t m = 0; m < Count(model.metadata()); ++m) {
    const uint32_t b = model.metadata()->Get(m)->buffer();
    if (b >= Count(model.buffers()))
      return InvalidArgument(Cat("metadata ", m, ": buffer ", b, " is out of range (",
                                 Count(model.buffers()), " buffers)"));
  }
  Status status = CheckSubGraph(model, *model.subgraphs()->Get(0));
  if (!status.ok()) return status.WithContext("subgraph 0");
  return OkStatus();
}

}  // namespace opuc
