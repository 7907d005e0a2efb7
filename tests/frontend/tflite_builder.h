//===- tests/frontend/tflite_builder.h - Small .tflite files for tests -*- C++ -*-===//
//
// Builds .tflite buffers with the FlatBuffers builder and the generated code
// of schema/tflite.fbs, so the importer's tests state their input exactly:
//
//   TfliteBuilder b;
//   int32_t x = b.Input("x", {1, 4, 4, 2});
//   int32_t w = b.Float("w", {3, 1, 1, 2}, weights);
//   int32_t y = b.Tensor("y", {1, 4, 4, 3});
//   b.Op(tfl::BuiltinOperator::CONV_2D, {x, w, -1}, {y}, b.Conv2D(...));
//   b.Output(y);
//   std::vector<uint8_t> bytes = b.Finish();
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_FRONTEND_TFLITE_BUILDER_H
#define OPUC_TESTS_FRONTEND_TFLITE_BUILDER_H

#include <cstdint>
#include <string>
#include <vector>

#include "tflite_generated.h"

namespace opuc::test {

namespace tfl = ::opuc::tflite;

/// A builtin_options union value: its type and its table.
struct TfliteOptions {
  tfl::BuiltinOptions type = tfl::BuiltinOptions::NONE;
  flatbuffers::Offset<void> table;
};

/// One traversed dimension of a sparse tensor; indices are stored as
/// `index_type` (Int32Vector, Uint16Vector or Uint8Vector).
struct TfliteSparseDim {
  bool dense = true;
  int32_t dense_size = 0;
  std::vector<int32_t> segments;
  std::vector<int32_t> indices;
  tfl::SparseIndexVector index_type = tfl::SparseIndexVector::Int32Vector;
};

struct TfliteSparsity {
  std::vector<int32_t> traversal_order;
  std::vector<int32_t> block_map;
  std::vector<TfliteSparseDim> dims;
};

class TfliteBuilder {
 public:
  TfliteBuilder();

  /// A tensor without data (an operator's output or a graph input).
  int32_t Tensor(const std::string& name, std::vector<int32_t> shape,
                 tfl::TensorType type = tfl::TensorType::FLOAT32);
  /// A graph input.
  int32_t Input(const std::string& name, std::vector<int32_t> shape,
                tfl::TensorType type = tfl::TensorType::FLOAT32);
  /// A constant holding `bytes` as they are.
  int32_t Constant(const std::string& name, std::vector<int32_t> shape, tfl::TensorType type,
                   std::vector<uint8_t> bytes);
  int32_t Float(const std::string& name, std::vector<int32_t> shape, std::vector<float> values);
  int32_t Half(const std::string& name, std::vector<int32_t> shape, std::vector<uint16_t> values);
  int32_t Int32(const std::string& name, std::vector<int32_t> shape, std::vector<int32_t> values);
  /// A sparse FLOAT16 constant holding its stored values.
  int32_t SparseHalf(const std::string& name, std::vector<int32_t> shape,
                     std::vector<uint16_t> values, TfliteSparsity sparsity);
  /// A constant whose data lies outside the FlatBuffer, at `offset` in the
  /// file (the caller appends it), as models over 2 GiB store it.
  int32_t External(const std::string& name, std::vector<int32_t> shape, tfl::TensorType type,
                   uint64_t offset, uint64_t size);
  void Output(int32_t tensor);

  /// Changes a tensor after the fact, for files that are wrong on purpose.
  void SetBuffer(int32_t tensor, uint32_t buffer) {
    tensors_[static_cast<size_t>(tensor)].buffer = buffer;
  }
  void SetQuantization(int32_t tensor, std::vector<float> scale, std::vector<int64_t> zero_point);
  void SetVariable(int32_t tensor) { tensors_[static_cast<size_t>(tensor)].is_variable = true; }

  void Op(tfl::BuiltinOperator op, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
          TfliteOptions options = {});
  void Custom(const std::string& custom_code, std::vector<int32_t> inputs,
              std::vector<int32_t> outputs, std::vector<uint8_t> custom_options);

  // Options tables, made now in the builder.
  TfliteOptions Conv2D(tfl::Padding padding, int stride_h, int stride_w,
                       tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE,
                       int dilation_h = 1, int dilation_w = 1);
  TfliteOptions DepthwiseConv2D(tfl::Padding padding, int stride_h, int stride_w, int multiplier,
                                tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE,
                                int dilation_h = 1, int dilation_w = 1);
  TfliteOptions Pool2D(tfl::Padding padding, int stride_h, int stride_w, int filter_h, int filter_w,
                       tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE);
  TfliteOptions TransposeConv(tfl::Padding padding, int stride_h, int stride_w,
                              tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE);
  TfliteOptions FullyConnected(tfl::ActivationFunctionType act, bool keep_num_dims,
                               tfl::FullyConnectedOptionsWeightsFormat format =
                                   tfl::FullyConnectedOptionsWeightsFormat::DEFAULT);
  TfliteOptions Add(tfl::ActivationFunctionType act);
  TfliteOptions Sub(tfl::ActivationFunctionType act);
  TfliteOptions Mul(tfl::ActivationFunctionType act);
  TfliteOptions Concatenation(int axis,
                              tfl::ActivationFunctionType act = tfl::ActivationFunctionType::NONE);
  TfliteOptions Softmax(float beta);
  TfliteOptions LeakyRelu(float alpha);
  TfliteOptions Reducer(bool keep_dims);
  TfliteOptions Reshape(std::vector<int32_t> new_shape);
  TfliteOptions ResizeBilinear(bool align_corners, bool half_pixel_centers);
  TfliteOptions ResizeNearest(bool align_corners, bool half_pixel_centers);
  TfliteOptions DepthToSpace(int block_size);

  /// Knobs for the tests of odd files.
  uint32_t version = 3;
  /// Write only the legacy byte of OperatorCode (as old converters did).
  bool legacy_opcodes = false;
  std::string description = "opuc test model";
  /// Metadata entries: name and the bytes of its buffer.
  std::vector<std::pair<std::string, std::vector<uint8_t>>> metadata;

  std::vector<uint8_t> Finish();

  flatbuffers::FlatBufferBuilder& fbb() { return fbb_; }

 private:
  struct TensorSpec {
    std::string name;
    std::vector<int32_t> shape;
    tfl::TensorType type;
    uint32_t buffer = 0;
    bool sparse = false;
    TfliteSparsity sparsity;
    std::vector<float> scale;
    std::vector<int64_t> zero_point;
    bool is_variable = false;
  };
  struct BufferSpec {
    std::vector<uint8_t> bytes;
    uint64_t offset = 0, size = 0;
  };
  struct OpSpec {
    uint32_t opcode;
    std::vector<int32_t> inputs, outputs;
    TfliteOptions options;
    std::vector<uint8_t> custom_options;
  };
  uint32_t OpCode(int32_t builtin, const std::string& custom);
  uint32_t AddBuffer(BufferSpec buffer);
  flatbuffers::Offset<tfl::SparsityParameters> WriteSparsity(const TfliteSparsity& s);

  flatbuffers::FlatBufferBuilder fbb_;
  std::vector<std::pair<int32_t, std::string>> codes_;
  std::vector<BufferSpec> buffers_;
  std::vector<TensorSpec> tensors_;
  std::vector<OpSpec> ops_;
  std::vector<int32_t> inputs_, outputs_;
};

/// IEEE half-precision bits of small exact values (0, ±0.5, ±1, ±2, ...).
uint16_t HalfBits(float value);

/// relu -> CUSTOM:Landmarks2TransformMatrix -> relu -> SQUEEZE: two
/// operators opuc cannot import (a MediaPipe custom op, and one it has no
/// converter for) between two it can.
std::vector<uint8_t> ModelWithUnknownOps();

}  // namespace opuc::test

#endif  // OPUC_TESTS_FRONTEND_TFLITE_BUILDER_H
