// Writes small seed files for the fuzzers (scripts/fuzz runs it once per
// corpus): a .tflite model of 3 KB whose ten operators reach most of the
// importer's converters.
// The real models stay in the corpus too, but a 230 KB input runs at under
// a thousand executions a second; these run at many thousands.
//
//   make_fuzz_seeds DIR
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/tflite_builder.h"

namespace {

using opuc::test::TfliteBuilder;
namespace tfl = opuc::test::tfl;
constexpr auto kRelu = tfl::ActivationFunctionType::RELU;
constexpr auto kNone = tfl::ActivationFunctionType::NONE;

std::vector<float> Ramp(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(int(i % 7) - 3) / 8.0f;
  return values;
}

/// conv, depthwise, add, max pool, mean, fully connected, softmax, concat,
/// reshape, resize: 8x8x3 in, float.
std::vector<uint8_t> FloatModel() {
  TfliteBuilder b;
  const int32_t x = b.Input("input", {1, 8, 8, 3});
  const int32_t w1 = b.Float("conv/w", {4, 3, 3, 3}, Ramp(108));
  const int32_t b1 = b.Float("conv/b", {4}, Ramp(4));
  const int32_t c1 = b.Tensor("conv", {1, 8, 8, 4});
  b.Op(tfl::BuiltinOperator::CONV_2D, {x, w1, b1}, {c1}, b.Conv2D(tfl::Padding::SAME, 1, 1, kRelu));
  const int32_t wd = b.Float("dw/w", {1, 3, 3, 4}, Ramp(36));
  const int32_t d1 = b.Tensor("dw", {1, 8, 8, 4});
  b.Op(tfl::BuiltinOperator::DEPTHWISE_CONV_2D, {c1, wd, -1}, {d1},
       b.DepthwiseConv2D(tfl::Padding::SAME, 1, 1, 1));
  const int32_t sum = b.Tensor("add", {1, 8, 8, 4});
  b.Op(tfl::BuiltinOperator::ADD, {c1, d1}, {sum}, b.Add(kRelu));
  const int32_t pool = b.Tensor("pool", {1, 4, 4, 4});
  b.Op(tfl::BuiltinOperator::MAX_POOL_2D, {sum}, {pool}, b.Pool2D(tfl::Padding::VALID, 2, 2, 2, 2));
  const int32_t up = b.Tensor("up", {1, 8, 8, 4});
  const int32_t size = b.Int32("up/size", {2}, {8, 8});
  b.Op(tfl::BuiltinOperator::RESIZE_NEAREST_NEIGHBOR, {pool, size}, {up},
       b.ResizeNearest(false, false));
  const int32_t cat = b.Tensor("concat", {1, 8, 8, 8});
  b.Op(tfl::BuiltinOperator::CONCATENATION, {sum, up}, {cat}, b.Concatenation(3));
  const int32_t axes = b.Int32("mean/axes", {2}, {1, 2});
  const int32_t mean = b.Tensor("mean", {1, 8});
  b.Op(tfl::BuiltinOperator::MEAN, {cat, axes}, {mean}, b.Reducer(false));
  const int32_t wf = b.Float("fc/w", {5, 8}, Ramp(40));
  const int32_t fc = b.Tensor("fc", {1, 5});
  b.Op(tfl::BuiltinOperator::FULLY_CONNECTED, {mean, wf, -1}, {fc}, b.FullyConnected(kNone, false));
  const int32_t soft = b.Tensor("softmax", {1, 5});
  b.Op(tfl::BuiltinOperator::SOFTMAX, {fc}, {soft}, b.Softmax(1.0f));
  const int32_t shape = b.Int32("reshape/shape", {2}, {5, 1});
  const int32_t out = b.Tensor("output", {5, 1});
  b.Op(tfl::BuiltinOperator::RESHAPE, {soft, shape}, {out}, b.Reshape({5, 1}));
  b.Output(out);
  return b.Finish();
}

bool Write(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(file);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_seeds DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  if (!Write(dir + "/small.tflite", FloatModel())) {
    std::fprintf(stderr, "make_fuzz_seeds: cannot write into %s\n", dir.c_str());
    return 1;
  }
  return 0;
}
