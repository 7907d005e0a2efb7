// MACs from shapes, each worked out by hand in a comment.
#include "opuc/ir/macs.h"
#include "partition/partition_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("MACs of each inner product") {
  Net n;
  TensorId x = n.In("x", {1, 8, 8, 3});
  // conv 3x3, 3 -> 16, stride 2 same: out 4x4x16; 1*4*4*16 * 3*3*3 = 6912
  TensorId c = n.Conv("conv", x, 3, 3, 16, 2);
  // depthwise 3x3 on 4x4x16, M = 1: 1*4*4*16 * 3*3 = 2304
  TensorId d = n.b.Op(OpKind::kDepthwiseConv2D, "dw", {c, n.Const("dw/w", {1, 3, 3, 16})},
                      Attrs({{"padding", Str("same")}}));
  // transpose conv 2x2 stride 2, 16 -> 8 on 4x4: (1*4*4*16 = 256) * (2*2*8 = 32) = 8192
  TensorId t = n.b.Op(OpKind::kTransposeConv2D, "tconv", {d, n.Const("t/w", {8, 2, 2, 16})},
                      Attrs({{"output_shape", Ints({1, 8, 8, 8})}, {"strides", Ints({2, 2})}}));
  // fully connected on 8*8*8 = 512 elements, Ci = 512, Co = 10: 512 * 10 = 5120
  TensorId f = n.b.Op(OpKind::kFullyConnected, "fc", {t, n.Const("fc/w", {10, 512})});
  Graph g = n.Finish(n.Relu("relu", f));
  CHECK(NodeMacs(g, 0) == 6912);
  CHECK(NodeMacs(g, 1) == 2304);
  CHECK(NodeMacs(g, 2) == 8192);
  CHECK(NodeMacs(g, 3) == 5120);
  CHECK(NodeMacs(g, 4) == 0);
  CHECK(NodeMacs(g, 99) == 0);
  const HwPartition p = PartitionOf(g);
  CHECK(p.total_macs == 6912 + 2304 + 8192 + 5120);
  CHECK(p.opu_macs == p.total_macs);
  // Without transpose_conv, its 8192 MACs are the CPU's.
  HwConfig no_transpose = *HwConfigPreset("opu1024");
  no_transpose.ipa.transpose_conv = false;
  Expected<HwPartition> q = PartitionForHardware(g, no_transpose);
  REQUIRE(q.ok());
  CHECK(q->opu_macs == 6912 + 2304 + 5120);
}

}  // namespace
}  // namespace opuc
