// A hand-built i8 graph as the quantizer will leave it: quantize at the
// input, i8 convolutions with i32 biases, lookup_table activations, i8
// sigmoid as a table, dequantize and softmax at the end. Tables run on the
// comparator; quantize, dequantize and softmax go to the CPU.
#include "partition/partition_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TensorId I8(GraphBuilder& b, const std::string& name, Shape shape, DType dtype = DType::kI8) {
  const auto bytes = static_cast<size_t>(*NumElements(shape)) * DTypeSize(dtype);
  return b.Constant(name, dtype, std::move(shape),
                    ConstantData::Copy(std::vector<uint8_t>(bytes, 1).data(), bytes));
}

TEST_CASE("quantized graph: tables on the comparator, conversions on the CPU") {
  GraphBuilder b("quantized");
  TensorId x = b.Input("x", DType::kF32, {1, 8, 8, 4});
  TensorId q = b.Op(OpKind::kQuantize, "q", {x});
  TensorId c1 =
      b.Op(OpKind::kConv2D, "c1", {q, I8(b, "w1", {4, 1, 1, 4}), I8(b, "b1", {4}, DType::kI32)});
  TensorId t1 = b.Op(OpKind::kLookupTable, "lut", {c1, I8(b, "table", {256})});
  TensorId c2 = b.Op(OpKind::kConv2D, "c2", {t1, I8(b, "w2", {4, 1, 1, 4})});
  TensorId s = b.Op(OpKind::kSigmoid, "sig", {c2});
  TensorId d = b.Op(OpKind::kDequantize, "dq", {s});
  b.Output(b.Op(OpKind::kSoftmax, "soft", {d}));
  Graph g = Build(std::move(b));
  const HwPartition p = PartitionOf(g);
  CHECK(GroupLines(g, p) ==
        Lines{"cpu q", "opu c1:ipa,lut:compare", "opu c2:ipa,sig:compare", "cpu dq", "cpu soft"});
  CHECK(ReasonOf(g, p, "q") == "quantize: float to i8 conversion runs on the CPU");
  CHECK(ReasonOf(g, p, "soft") == "softmax: not in the datapath");
  CHECK(ReasonOf(g, p, "lut") == "stage compare after ipa in group 1");

  // Without tables the comparator takes neither.
  HwConfig hw = *HwConfigPreset("opu1024");
  hw.compare.lookup_table = false;
  Expected<HwPartition> no_tables = PartitionForHardware(g, hw);
  REQUIRE(no_tables.ok());
  CHECK(ReasonOf(g, *no_tables, "lut") ==
        "lookup_table: this OPU has no lookup tables (compare.lookup_table)");
  CHECK(PlaceOf(g, *no_tables, "sig").placement == Placement::kCpu);
}

}  // namespace
}  // namespace opuc
