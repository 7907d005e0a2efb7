// A float model shaped like pose landmarks' 256x256 head, small: maps of
// Co/2 channels through depthwise 3x3 + relu6, then 1x1 + the map before +
// relu6, twice (the first 1x1's residual is the model's input, the second
// depthwise's input and the second 1x1's residual the first 1x1's
// output). Quantized on seeded samples, partitioned and
// compiled for a preset: both depthwise products read doubled maps and take
// two pixels an entry, the first 1x1 writes its output doubled
// (codegen/doubled_maps.h).
#ifndef OPUC_TESTS_PROGRAM_DOUBLED_MODEL_H
#define OPUC_TESTS_PROGRAM_DOUBLED_MODEL_H

#include <doctest/doctest.h>

#include <memory>
#include <new>
#include <string>
#include <vector>

#include "small_model.h"

namespace opuc::test {

inline Graph DoubledFloatModel(int64_t h, int64_t w, int64_t channels) {
  GraphBuilder b("doubled");
  const TensorId x = b.Input("x", DType::kF32, {1, h, w, channels});
  Attributes same;
  same.Set("padding", std::string("same"));
  const int64_t c = channels;
  const auto n = static_cast<size_t>(c);
  auto block = [&](TensorId in, const std::string& name, float start) {
    TensorId d = b.Op(OpKind::kDepthwiseConv2D, name + "/dw",
                      {in, b.ConstantF32(name + "/dw/w", {1, 3, 3, c}, Ramp(9 * n, 0.07f, start)),
                       b.ConstantF32(name + "/dw/b", {c}, Ramp(n, 0.03f, -0.1f))},
                      same);
    d = b.Op(OpKind::kRelu6, name + "/dw/relu6", {d});
    const TensorId p =
        b.Op(OpKind::kConv2D, name + "/pw",
             {d, b.ConstantF32(name + "/pw/w", {c, 1, 1, c}, Ramp(n * n, 0.06f, -0.35f)),
              b.ConstantF32(name + "/pw/b", {c}, Ramp(n, 0.02f, -0.05f))},
             same);
    return b.Op(OpKind::kRelu6, name + "/relu6", {b.Op(OpKind::kAdd, name + "/add", {p, in})});
  };
  b.Output(block(block(x, "a", -0.3f), "b", -0.25f));
  return Finished(std::move(b));
}

/// The model quantized, partitioned and planned for `hw` with `options`.
inline SmallModel MakeDoubledModel(const std::string& hw, int64_t h, int64_t w,
                                   const PlanOptions& options = {}) {
  const int64_t channels = HwConfigPreset(hw).value().array.output_channels / 2;
  return CompileSmallModel(hw, DoubledFloatModel(h, w, channels), options);
}

/// The steps' tiling texts that hold `what`.
inline int CountTilings(const SmallModel& m, const std::string& what) {
  int n = 0;
  for (const PlannedStep& step : m.code.steps)
    n += step.kind == StepKind::kOpu && step.tiling.find(what) != std::string::npos;
  return n;
}

/// `bytes` read as a program, from memory aligned as the reader wants it.
inline Program ReadAligned(const std::vector<uint8_t>& bytes, const char* name) {
  auto owner =
      std::shared_ptr<uint8_t>(new (std::align_val_t(64)) uint8_t[bytes.size()],
                               [](uint8_t* p) { ::operator delete[](p, std::align_val_t(64)); });
  std::copy(bytes.begin(), bytes.end(), owner.get());
  Expected<Program> program = ReadProgram(owner, owner.get(), bytes.size(), name);
  REQUIRE_MESSAGE(program.ok(), program.status().ToString());
  return std::move(program).value();
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_PROGRAM_DOUBLED_MODEL_H
