//===- tests/frontend/tflite_builder.cc - Small .tflite files for tests ---===//
#include "frontend/tflite_builder.h"

#include <cstring>

namespace opuc::test {
namespace {

using flatbuffers::Offset;

template <typename T>
std::vector<uint8_t> RawBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
TfliteOptions Wrap(Offset<T> table) {
  return {tfl::BuiltinOptionsTraits<T>::enum_value, table.Union()};
}

}  // namespace

uint16_t HalfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  if ((bits & 0x7fffffffu) == 0) return static_cast<uint16_t>(sign);
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exponent) << 10) |
                               ((bits >> 13) & 0x3ffu));
}

TfliteBuilder::TfliteBuilder() { buffers_.emplace_back(); }

uint32_t TfliteBuilder::AddBuffer(BufferSpec buffer) {
  buffers_.push_back(std::move(buffer));
  return static_cast<uint32_t>(buffers_.size() - 1);
}

int32_t TfliteBuilder::Tensor(const std::string& name, std::vector<int32_t> shape,
                              tfl::TensorType type) {
  TensorSpec spec;
  spec.name = name;
  spec.shape = std::move(shape);
  spec.type = type;
  tensors_.push_back(std::move(spec));
  return static_cast<int32_t>(tensors_.size() - 1);
}

int32_t TfliteBuilder::Input(const std::string& name, std::vector<int32_t> shape,
                             tfl::TensorType type) {
  const int32_t t = Tensor(name, std::move(shape), type);
  inputs_.push_back(t);
  return t;
}

int32_t TfliteBuilder::Constant(const std::string& name, std::vector<int32_t> shape,
                                tfl::TensorType type, std::vector<uint8_t> bytes) {
  const int32_t t = Tensor(name, std::move(shape), type);
  tensors_.back().buffer = AddBuffer({std::move(bytes), 0, 0});
  return t;
}

int32_t TfliteBuilder::External(const std::string& name, std::vector<int32_t> shape,
                                tfl::TensorType type, uint64_t offset, uint64_t size) {
  const int32_t t = Tensor(name, std::move(shape), type);
  tensors_.back().buffer = AddBuffer({{}, offset, size});
  return t;
}

void TfliteBuilder::SetQuantization(int32_t tensor, std::vector<float> scale,
                                    std::vector<int64_t> zero_point) {
  tensors_[static_cast<size_t>(tensor)].scale = std::move(scale);
  tensors_[static_cast<size_t>(tensor)].zero_point = std::move(zero_point);
}

int32_t TfliteBuilder::Float(const std::string& name, std::vector<int32_t> shape,
                             std::vector<float> values) {
  return Constant(name, std::move(shape), tfl::TensorType::FLOAT32, RawBytes(values));
}

int32_t TfliteBuilder::Half(const std::string& name, std::vector<int32_t> shape,
                            std::vector<uint16_t> values) {
  return Constant(name, std::move(shape), tfl::TensorType::FLOAT16, RawBytes(values));
}

int32_t TfliteBuilder::Int32(const std::string& name, std::vector<int32_t> shape,
                             std::vector<int32_t> values) {
  return Constant(name, std::move(shape), tfl::TensorType::INT32, RawBytes(values));
}

int32_t TfliteBuilder::SparseHalf(const std::string& name, std::vector<int32_t> shape,
                                  std::vector<uint16_t> values, TfliteSparsity sparsity) {
  const int32_t t = Half(name, std::move(shape), std::move(values));
  tensors_.back().sparse = true;
  tensors_.back().sparsity = std::move(sparsity);
  return t;
}

void TfliteBuilder::Output(int32_t tensor) { outputs_.push_back(tensor); }

uint32_t TfliteBuilder::OpCode(int32_t builtin, const std::string& custom) {
  for (size_t i = 0; i < codes_.size(); ++i)
    if (codes_[i].first == builtin && codes_[i].second == custom) return static_cast<uint32_t>(i);
  codes_.emplace_back(builtin, custom);
  return static_cast<uint32_t>(codes_.size() - 1);
}

void TfliteBuilder::Op(tfl::BuiltinOperator op, std::vector<int32_t> inputs,
                       std::vector<int32_t> outputs, TfliteOptions options) {
  ops_.push_back(
      {OpCode(static_cast<int32_t>(op), ""), std::move(inputs), std::move(outputs), options, {}});
}

void TfliteBuilder::Custom(const std::string& custom_code, std::vector<int32_t> inputs,
                           std::vector<int32_t> outputs, std::vector<uint8_t> custom_options) {
  ops_.push_back({OpCode(static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM), custom_code),
                  std::move(inputs),
                  std::move(outputs),
                  {},
                  std::move(custom_options)});
}

TfliteOptions TfliteBuilder::Conv2D(tfl::Padding padding, int stride_h, int stride_w,
                                    tfl::ActivationFunctionType act, int dilation_h,
                                    int dilation_w) {
  return Wrap(
      tfl::CreateConv2DOptions(fbb_, padding, stride_w, stride_h, act, dilation_w, dilation_h));
}

TfliteOptions TfliteBuilder::DepthwiseConv2D(tfl::Padding padding, int stride_h, int stride_w,
                                             int multiplier, tfl::ActivationFunctionType act,
                                             int dilation_h, int dilation_w) {
  return Wrap(tfl::CreateDepthwiseConv2DOptions(fbb_, padding, stride_w, stride_h, multiplier, act,
                                                dilation_w, dilation_h));
}

TfliteOptions TfliteBuilder::Pool2D(tfl::Padding padding, int stride_h, int stride_w, int filter_h,
                                    int filter_w, tfl::ActivationFunctionType act) {
  return Wrap(tfl::CreatePool2DOptions(fbb_, padding, stride_w, stride_h, filter_w, filter_h, act));
}

TfliteOptions TfliteBuilder::TransposeConv(tfl::Padding padding, int stride_h, int stride_w,
                                           tfl::ActivationFunctionType act) {
  return Wrap(tfl::CreateTransposeConvOptions(fbb_, padding, stride_w, stride_h, act));
}

TfliteOptions TfliteBuilder::FullyConnected(tfl::ActivationFunctionType act, bool keep_num_dims,
                                            tfl::FullyConnectedOptionsWeightsFormat format) {
  return Wrap(tfl::CreateFullyConnectedOptions(fbb_, act, format, keep_num_dims));
}

TfliteOptions TfliteBuilder::Add(tfl::ActivationFunctionType act) {
  return Wrap(tfl::CreateAddOptions(fbb_, act));
}
TfliteOptions TfliteBuilder::Sub(tfl::ActivationFunctionType act) {
  return Wrap(tfl::CreateSubOptions(fbb_, act));
}
TfliteOptions TfliteBuilder::Mul(tfl::ActivationFunctionType act) {
  return Wrap(tfl::CreateMulOptions(fbb_, act));
}
TfliteOptions TfliteBuilder::Concatenation(int axis, tfl::ActivationFunctionType act) {
  return Wrap(tfl::CreateConcatenationOptions(fbb_, axis, act));
}
TfliteOptions TfliteBuilder::Softmax(float beta) {
  return Wrap(tfl::CreateSoftmaxOptions(fbb_, beta));
}
TfliteOptions TfliteBuilder::LeakyRelu(float alpha) {
  return Wrap(tfl::CreateLeakyReluOptions(fbb_, alpha));
}
TfliteOptions TfliteBuilder::Reducer(bool keep_dims) {
  return Wrap(tfl::CreateReducerOptions(fbb_, keep_dims));
}
TfliteOptions TfliteBuilder::Reshape(std::vector<int32_t> new_shape) {
  return Wrap(tfl::CreateReshapeOptions(fbb_, fbb_.CreateVector(new_shape)));
}
TfliteOptions TfliteBuilder::ResizeBilinear(bool align_corners, bool half_pixel_centers) {
  return Wrap(tfl::CreateResizeBilinearOptions(fbb_, align_corners, half_pixel_centers));
}
TfliteOptions TfliteBuilder::ResizeNearest(bool align_corners, bool half_pixel_centers) {
  return Wrap(tfl::CreateResizeNearestNeighborOptions(fbb_, align_corners, half_pixel_centers));
}
TfliteOptions TfliteBuilder::DepthToSpace(int block_size) {
  return Wrap(tfl::CreateDepthToSpaceOptions(fbb_, block_size));
}

Offset<tfl::SparsityParameters> TfliteBuilder::WriteSparsity(const TfliteSparsity& s) {
  const auto index_vector = [&](const std::vector<int32_t>& values,
                                tfl::SparseIndexVector type) -> Offset<void> {
    switch (type) {
      case tfl::SparseIndexVector::Uint16Vector: {
        std::vector<uint16_t> narrow(values.begin(), values.end());
        return tfl::CreateUint16Vector(fbb_, fbb_.CreateVector(narrow)).Union();
      }
      case tfl::SparseIndexVector::Uint8Vector: {
        std::vector<uint8_t> narrow(values.begin(), values.end());
        return tfl::CreateUint8Vector(fbb_, fbb_.CreateVector(narrow)).Union();
      }
      default: return tfl::CreateInt32Vector(fbb_, fbb_.CreateVector(values)).Union();
    }
  };
  std::vector<Offset<tfl::DimensionMetadata>> dims;
  for (const TfliteSparseDim& d : s.dims) {
    if (d.dense) {
      dims.push_back(tfl::CreateDimensionMetadata(fbb_, tfl::DimensionType::DENSE, d.dense_size));
      continue;
    }
    const auto segments = index_vector(d.segments, d.index_type);
    const auto indices = index_vector(d.indices, d.index_type);
    dims.push_back(tfl::CreateDimensionMetadata(fbb_, tfl::DimensionType::SPARSE_CSR, 0,
                                                d.index_type, segments, d.index_type, indices));
  }
  return tfl::CreateSparsityParameters(fbb_, fbb_.CreateVector(s.traversal_order),
                                       fbb_.CreateVector(s.block_map), fbb_.CreateVector(dims));
}

std::vector<uint8_t> TfliteBuilder::Finish() {
  std::vector<Offset<tfl::Buffer>> buffers;
  for (const BufferSpec& buffer : buffers_) {
    if (buffer.bytes.empty()) {
      buffers.push_back(tfl::CreateBuffer(fbb_, 0, buffer.offset, buffer.size));
      continue;
    }
    fbb_.ForceVectorAlignment(buffer.bytes.size(), sizeof(uint8_t), 16);
    buffers.push_back(tfl::CreateBuffer(fbb_, fbb_.CreateVector(buffer.bytes)));
  }
  std::vector<Offset<tfl::Metadata>> metadata_tables;
  for (const auto& [name, bytes] : metadata) {
    const auto b = static_cast<uint32_t>(buffers.size());
    buffers.push_back(tfl::CreateBuffer(fbb_, fbb_.CreateVector(bytes)));
    metadata_tables.push_back(tfl::CreateMetadata(fbb_, fbb_.CreateString(name), b));
  }
  std::vector<Offset<tfl::Tensor>> tensors;
  for (const TensorSpec& t : tensors_) {
    const auto sparsity = t.sparse ? WriteSparsity(t.sparsity) : 0;
    Offset<tfl::QuantizationParameters> quantization = 0;
    if (!t.scale.empty() || !t.zero_point.empty())
      quantization = tfl::CreateQuantizationParameters(fbb_, 0, 0, fbb_.CreateVector(t.scale),
                                                       fbb_.CreateVector(t.zero_point));
    tensors.push_back(tfl::CreateTensor(fbb_, fbb_.CreateVector(t.shape), t.type, t.buffer,
                                        fbb_.CreateString(t.name), quantization, t.is_variable,
                                        sparsity));
  }
  std::vector<Offset<tfl::Operator>> ops;
  for (const OpSpec& op : ops_) {
    const auto custom = op.custom_options.empty() ? 0 : fbb_.CreateVector(op.custom_options);
    ops.push_back(tfl::CreateOperator(fbb_, op.opcode, fbb_.CreateVector(op.inputs),
                                      fbb_.CreateVector(op.outputs), op.options.type,
                                      op.options.table, custom));
  }
  std::vector<Offset<tfl::OperatorCode>> codes;
  for (const auto& [builtin, custom] : codes_) {
    const auto legacy = static_cast<int8_t>(builtin < 127 ? builtin : 127);
    const auto code = static_cast<tfl::BuiltinOperator>(legacy_opcodes ? 0 : builtin);
    codes.push_back(tfl::CreateOperatorCode(
        fbb_, legacy, custom.empty() ? 0 : fbb_.CreateString(custom), 1, code));
  }
  const auto subgraph = tfl::CreateSubGraph(fbb_, fbb_.CreateVector(tensors),
                                            fbb_.CreateVector(inputs_), fbb_.CreateVector(outputs_),
                                            fbb_.CreateVector(ops), fbb_.CreateString("main"));
  const auto model =
      tfl::CreateModel(fbb_, version, fbb_.CreateVector(codes),
                       fbb_.CreateVector(std::vector{subgraph}), fbb_.CreateString(description),
                       fbb_.CreateVector(buffers), fbb_.CreateVector(metadata_tables));
  tfl::FinishModelBuffer(fbb_, model);
  return std::vector<uint8_t>(fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize());
}

std::vector<uint8_t> ModelWithUnknownOps() {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {2});
  const int32_t y = b.Tensor("y", {2});
  const int32_t z = b.Tensor("z", {2});
  const int32_t w = b.Tensor("w", {2});
  const int32_t v = b.Tensor("v", {2});
  b.Op(tfl::BuiltinOperator::RELU, {x}, {y});
  b.Custom("Landmarks2TransformMatrix", {y}, {z}, {});
  b.Op(tfl::BuiltinOperator::RELU, {z}, {w});
  b.Op(tfl::BuiltinOperator::SQUEEZE, {w}, {v});
  b.Output(v);
  return b.Finish();
}

}  // namespace opuc::test
