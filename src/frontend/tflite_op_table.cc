//===- src/frontend/tflite_op_table.cc - TFLite operator → converter ------===//
//
// The one list of what the importer reads; docs/tflite-importer.md has the
// same table with the IR op and attributes of each.
//
//===----------------------------------------------------------------------===//
#include "tflite_import.h"

namespace opuc {
namespace {

struct BuiltinEntry {
  tfl::BuiltinOperator op;
  Converter convert;
};

constexpr BuiltinEntry kBuiltins[] = {
    {tfl::BuiltinOperator::CONV_2D, ConvertConv2D},
    {tfl::BuiltinOperator::DEPTHWISE_CONV_2D, ConvertDepthwiseConv2D},
    {tfl::BuiltinOperator::TRANSPOSE_CONV, ConvertTransposeConv},
    {tfl::BuiltinOperator::FULLY_CONNECTED, ConvertFullyConnected},
    {tfl::BuiltinOperator::ADD, ConvertAdd},
    {tfl::BuiltinOperator::SUB, ConvertSub},
    {tfl::BuiltinOperator::MUL, ConvertMul},
    {tfl::BuiltinOperator::RELU, ConvertRelu},
    {tfl::BuiltinOperator::RELU6, ConvertRelu6},
    {tfl::BuiltinOperator::RELU_N1_TO_1, ConvertReluN1To1},
    {tfl::BuiltinOperator::PRELU, ConvertPRelu},
    {tfl::BuiltinOperator::LEAKY_RELU, ConvertLeakyRelu},
    {tfl::BuiltinOperator::HARD_SWISH, ConvertHardSwish},
    {tfl::BuiltinOperator::LOGISTIC, ConvertLogistic},
    {tfl::BuiltinOperator::TANH, ConvertTanh},
    {tfl::BuiltinOperator::SOFTMAX, ConvertSoftmax},
    {tfl::BuiltinOperator::MAX_POOL_2D, ConvertMaxPool2D},
    {tfl::BuiltinOperator::AVERAGE_POOL_2D, ConvertAveragePool2D},
    {tfl::BuiltinOperator::MEAN, ConvertMean},
    {tfl::BuiltinOperator::PAD, ConvertPad},
    {tfl::BuiltinOperator::RESHAPE, ConvertReshape},
    {tfl::BuiltinOperator::CONCATENATION, ConvertConcatenation},
    {tfl::BuiltinOperator::RESIZE_BILINEAR, ConvertResizeBilinear},
    {tfl::BuiltinOperator::RESIZE_NEAREST_NEIGHBOR, ConvertResizeNearestNeighbor},
    {tfl::BuiltinOperator::DEPTH_TO_SPACE, ConvertDepthToSpace},
    {tfl::BuiltinOperator::DEQUANTIZE, ConvertDequantize},
    {tfl::BuiltinOperator::DENSIFY, ConvertDensify},
};

struct CustomEntry {
  const char* custom_code;
  Converter convert;
};

/// MediaPipe's transposed convolution with bias (the selfie segmentation
/// models).
constexpr CustomEntry kCustoms[] = {
    {"Convolution2DTransposeBias", ConvertConv2DTransposeBias},
};

}  // namespace

Converter FindConverter(const OperatorCodeInfo& code) {
  if (code.builtin == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM)) {
    for (const CustomEntry& entry : kCustoms)
      if (code.custom_code == entry.custom_code) return entry.convert;
    return nullptr;
  }
  for (const BuiltinEntry& entry : kBuiltins)
    if (static_cast<int32_t>(entry.op) == code.builtin) return entry.convert;
  return nullptr;
}

}  // namespace opuc
