//===- src/frontend/tflite_tensors.cc - File tensors to IR tensors --------===//
//
// IR tensors are made on first use, in the order the graph needs them: the
// graph inputs, then each operator's data inputs and output. A parameter
// tensor that an operator reads into an attribute (paddings, a new shape)
// is never made unless something also uses it as data.
//
//===----------------------------------------------------------------------===//
#include <cstring>
#include <limits>

#include "opuc/ir/sparsity.h"
#include "support/fb_vector.h"
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

std::optional<DType> ToDType(tfl::TensorType type) {
  switch (type) {
    case tfl::TensorType::FLOAT32: return DType::kF32;
    case tfl::TensorType::FLOAT16: return DType::kF16;
    case tfl::TensorType::INT32: return DType::kI32;
    default: return std::nullopt;
  }
}

}  // namespace

std::string DescribeTfliteTensor(const tfl::SubGraph& subgraph, int32_t index) {
  const tfl::Tensor* t = subgraph.tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
  return Cat("tensor ", index, " '", t->name() ? t->name()->string_view() : "", "'");
}

std::string TfliteTypeName(tfl::TensorType type) {
  const char* name = tfl::EnumNameTensorType(type);
  if (name && *name) return name;
  return Cat("code ", static_cast<int>(type), " (no TFLite type)");
}

TfliteTensors::TfliteTensors(std::shared_ptr<const void> owner, const uint8_t* file,
                             const tfl::Model& model, const tfl::SubGraph& subgraph)
    : owner_(std::move(owner)),
      file_(file),
      model_(model),
      subgraph_(subgraph),
      ir_id_(subgraph.tensors() ? subgraph.tensors()->size() : 0, kNoTensor) {}

ByteSpan BufferBytes(const tfl::Model& model, const uint8_t* file, uint32_t b) {
  const tfl::Buffer& buffer = *model.buffers()->Get(b);
  if (buffer.data() && buffer.data()->size() > 0)
    return {buffer.data()->data(), buffer.data()->size()};
  if (buffer.offset() > 1)  // Outside the FlatBuffer; CheckTfliteModel bounded it.
    return {file + static_cast<size_t>(buffer.offset()), static_cast<size_t>(buffer.size())};
  return {};
}

ByteSpan TfliteTensors::ConstantBytes(int32_t index) const {
  const uint32_t b = subgraph_.tensors()->Get(static_cast<flatbuffers::uoffset_t>(index))->buffer();
  if (b == 0) return {};  // CheckTfliteModel: any other index is in range.
  return BufferBytes(model_, file_, b);
}

bool TfliteTensors::IsConstant(int32_t index) const { return ConstantBytes(index).size > 0; }

std::string TfliteTensors::UniqueName(int32_t index) {
  const tfl::Tensor& t = *subgraph_.tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
  std::string name = t.name() && t.name()->size() ? t.name()->str() : Cat("tensor_", index);
  // A repeated name gets the file's tensor index, then more suffixes if that
  // is taken too; names are claimed in creation order, so this is stable.
  if (names_.count(name)) name = Cat(name, "_", index);
  while (names_.count(name)) name += "_";
  names_.insert(name);
  return name;
}

Expected<Tensor> TfliteTensors::MakeTensor(int32_t index, bool with_data) const {
  const tfl::Tensor& t = *subgraph_.tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
  const std::optional<DType> dtype = ToDType(t.type());
  if (!dtype)
    return Unsupported(Cat("type ", TfliteTypeName(t.type()),
                           " is not supported (opuc imports FLOAT32, FLOAT16 and INT32 tensors)"));
  if (t.is_variable())
    return Unsupported("is a variable tensor; opuc imports stateless models only");
  if (const tfl::QuantizationParameters* q = t.quantization()) {
    if ((q->scale() && q->scale()->size()) || (q->zero_point() && q->zero_point()->size()))
      return Unsupported(
          "has quantization parameters (scale, zero_point); opuc imports float"
          " models and quantizes them itself");
  }
  Tensor tensor;
  tensor.dtype = *dtype;
  for (int32_t extent : CopyScalars(t.shape())) {
    if (extent < 0) return InvalidArgument(Cat("shape has the negative extent ", extent));
    tensor.shape.push_back(extent);
  }
  if (!NumElements(tensor.shape))
    return InvalidArgument(Cat("shape ", ShapeToString(tensor.shape), " has too many elements"));
  if (t.sparsity() && !with_data)
    return InvalidArgument("has sparsity parameters but no constant data");
  if (!with_data) return tensor;

  const ByteSpan bytes = ConstantBytes(index);
  if (bytes.size == 0) return InvalidArgument("has no constant data");
  if (t.sparsity()) {
    OPUC_ASSIGN_OR_RETURN(tensor.sparsity, ReadSparsity(*t.sparsity()));
  } else {
    const uint64_t want = static_cast<uint64_t>(*NumElements(tensor.shape));
    const size_t esize = DTypeSize(tensor.dtype);
    if (bytes.size % esize != 0 || bytes.size / esize != want)
      return InvalidArgument(Cat("buffer ", t.buffer(), " holds ", bytes.size, " bytes; shape ",
                                 ShapeToString(tensor.shape), " ", TfliteTypeName(t.type()),
                                 " needs ", want, " × ", esize));
  }
  // In place when aligned like every constant opuc makes; copied otherwise
  // (older converters aligned buffers to 4 bytes only).
  if (reinterpret_cast<uintptr_t>(bytes.data) % kConstantAlignment == 0)
    tensor.constant = ConstantData::View(owner_, bytes.data, bytes.size);
  else
    tensor.constant = ConstantData::Copy(bytes.data, bytes.size);
  if (tensor.sparsity) OPUC_RETURN_IF_ERROR(CheckSparsity(tensor).status());
  return tensor;
}

Expected<TensorId> TfliteTensors::Create(int32_t index, bool with_data) {
  Expected<Tensor> tensor = MakeTensor(index, with_data);
  if (!tensor.ok()) return tensor.status().WithContext(DescribeTfliteTensor(subgraph_, index));
  tensor->name = UniqueName(index);
  const TensorId id = graph_.AddTensor(std::move(tensor).value());
  ir_id_[static_cast<size_t>(index)] = id;
  return id;
}

Expected<TensorId> TfliteTensors::Use(int32_t index) {
  const TensorId id = ir_id_[static_cast<size_t>(index)];
  if (id != kNoTensor) return id;
  if (IsConstant(index)) return Create(index, /*with_data=*/true);
  return InvalidArgument(Cat(DescribeTfliteTensor(subgraph_, index),
                             " is neither a graph input, a constant, nor the output of an"
                             " earlier operator (operators must be in topological order)"));
}

Expected<TensorId> TfliteTensors::DefineOutput(int32_t index) {
  const std::string where = DescribeTfliteTensor(subgraph_, index);
  if (ir_id_[static_cast<size_t>(index)] != kNoTensor)
    return InvalidArgument(Cat(where,
                               " is already defined (a graph input, a constant or an"
                               " earlier operator's output); an output must be new"));
  if (IsConstant(index))
    return InvalidArgument(Cat(where, " has constant data; an operator cannot write it"));
  return Create(index, /*with_data=*/false);
}

Expected<TensorId> TfliteTensors::DefineInput(int32_t index) {
  const std::string where = DescribeTfliteTensor(subgraph_, index);
  if (ir_id_[static_cast<size_t>(index)] != kNoTensor)
    return InvalidArgument(Cat(where, " is listed twice as a graph input"));
  if (IsConstant(index))
    return InvalidArgument(Cat(where, " has constant data; a graph input cannot"));
  return Create(index, /*with_data=*/false);
}

Expected<ParamTensor> TfliteTensors::ReadParam(int32_t index) const {
  const tfl::Tensor& t = *subgraph_.tensors()->Get(static_cast<flatbuffers::uoffset_t>(index));
  const bool wide = t.type() == tfl::TensorType::INT64;
  if (t.type() != tfl::TensorType::INT32 && !wide)
    return Unsupported(Cat("type is ", TfliteTypeName(t.type()), "; expected INT32 or INT64"));
  const ByteSpan bytes = ConstantBytes(index);
  if (bytes.size == 0 || t.sparsity())
    return Unsupported("is not a dense constant; opuc needs this parameter when compiling");
  ParamTensor param;
  for (int32_t extent : CopyScalars(t.shape())) {
    if (extent < 0) return InvalidArgument(Cat("shape has the negative extent ", extent));
    param.shape.push_back(extent);
  }
  const std::optional<int64_t> count = NumElements(param.shape);
  const size_t esize = wide ? 8 : 4;
  if (!count || bytes.size % esize != 0 || bytes.size / esize != static_cast<uint64_t>(*count))
    return InvalidArgument(Cat("buffer ", t.buffer(), " holds ", bytes.size, " bytes; shape ",
                               ShapeToString(param.shape), " ", TfliteTypeName(t.type()), " needs ",
                               count.value_or(-1), " × ", esize));
  param.values.resize(static_cast<size_t>(*count));
  for (size_t i = 0; i < param.values.size(); ++i) {
    if (wide) {
      std::memcpy(&param.values[i], bytes.data + 8 * i, 8);
      continue;
    }
    int32_t v;
    std::memcpy(&v, bytes.data + 4 * i, 4);
    param.values[i] = v;
  }
  return param;
}

}  // namespace opuc
