// The test cases of reference/opu-compiler.md section 7 (1-15; 16-19 are
// about the backend and quantization), with the groups derived by hand from
// the HDFG of hdfg.h, and the original's bugs fixed where the reference
// says opuc must decide (cases 4, 13, 14, 15). Groups are listed in
// execution order as "kind op:stage,...".
#include "partition/partition_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("case 1: pad, conv, bias, relu, max pool make one group") {
  Net n;
  TensorId x = n.In("x");
  TensorId p = n.Pad("pad", x, {0, 0, 1, 1, 1, 1, 0, 0});
  TensorId c =
      n.b.Op(OpKind::kConv2D, "conv", {p, n.Const("w", {4, 3, 3, 4})});  // valid: 8x8 again
  Graph g = n.Finish(n.MaxPool("pool", n.Relu("relu", n.Bias("bias", c))));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu pad:pad,conv:ipa,bias:add,relu:compare,pool:pool"});
  CHECK(part.opu_ops == 5);
  CHECK(part.cpu_ops == 0);
}

TEST_CASE("case 2: a second conv opens a new group") {
  Net n;
  Graph g = n.Finish(n.Conv("c2", n.Conv("c1", n.In("x"))));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu c1:ipa", "opu c2:ipa"});
  CHECK(PlaceOf(g, part, "c2").placement == Placement::kStarted);
  CHECK(ReasonOf(g, part, "c2") == "second ipa in group 0");

  Net m;  // the original's gtest: conv3x3, add, relu, conv1x1, add
  TensorId r = m.Relu("relu", m.Bias("add1", m.Conv("conv1", m.In("x"), 3)));
  Graph h = m.Finish(m.Bias("add2", m.Conv("conv2", r)));
  CHECK(GroupLines(h, PartitionOf(h)) ==
        Lines{"opu conv1:ipa,add1:add,relu:compare", "opu conv2:ipa,add2:add"});
}

TEST_CASE("case 3: a pad after compare heads the next group") {
  Net n;
  TensorId r = n.Relu("r1", n.Bias("a1", n.Conv("c1", n.In("x"))));
  TensorId p = n.Pad("pad", r, {0, 0, 1, 1, 1, 1, 0, 0});
  TensorId c = n.b.Op(OpKind::kConv2D, "c2", {p, n.Const("w2", {4, 3, 3, 4})});
  Graph g = n.Finish(n.Relu("r2", n.Bias("a2", c)));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) ==
        Lines{"opu c1:ipa,a1:add,r1:compare", "opu pad:pad,c2:ipa,a2:add,r2:compare"});
  CHECK(ReasonOf(g, part, "pad") ==
        "a pad for an inner product after the ipa of group 0 (one pad and one ipa per group)");
}

TEST_CASE("case 4: a pad between convs goes with the conv it feeds (not pool_pad)") {
  Net n;
  TensorId a = n.Bias("a", n.Conv("c1", n.In("x")));
  TensorId p = n.Pad("pad", a, {0, 0, 1, 1, 1, 1, 0, 0});
  Graph g = n.Finish(n.b.Op(OpKind::kConv2D, "c2", {p, n.Const("w2", {4, 3, 3, 4})}));
  CHECK(GroupLines(g, PartitionOf(g)) == Lines{"opu c1:ipa,a:add", "opu pad:pad,c2:ipa"});

  Net m;  // a pad a pool reads does take pool_pad
  TensorId b = m.Bias("a", m.Conv("c1", m.In("x")));
  TensorId q = m.Pad("pad", b, {0, 0, 1, 1, 1, 1, 0, 0});
  Graph h = m.Finish(m.b.Op(OpKind::kMaxPool2D, "pool", {q}, Attrs({{"filter", Ints({3, 3})}})));
  CHECK(GroupLines(h, PartitionOf(h)) == Lines{"opu c1:ipa,a:add,pad:pool_pad,pool:pool"});
}

TEST_CASE("case 5: the same unit never runs twice in a row") {
  Net n;
  Graph g = n.Finish(n.Relu("r2", n.Relu("r1", n.Conv("c", n.In("x")))));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu c:ipa,r1:compare", "opu r2:compare"});
  CHECK(ReasonOf(g, part, "r2") ==
        "relu cannot follow compare in group 0: no unit runs twice in a row");
}

TEST_CASE("case 6: the compare/pool cycle, two pools in a row restart") {
  Net n;
  TensorId t = n.MaxPool("p1", n.Relu("r1", n.Conv("c", n.In("x"))));
  Graph g = n.Finish(n.MaxPool("p2", n.Relu("r2", t)));
  CHECK(GroupLines(g, PartitionOf(g)) == Lines{"opu c:ipa,r1:compare,p1:pool,r2:compare,p2:pool"});

  Net m;
  Graph h = m.Finish(m.MaxPool("p2", m.MaxPool("p1", m.Conv("c", m.In("x")))));
  CHECK(GroupLines(h, PartitionOf(h)) == Lines{"opu c:ipa,p1:pool", "opu p2:pool"});
}

TEST_CASE("case 7: input normalization and batch norm around one conv") {
  Net n;
  TensorId t = n.Scale("m1", n.Bias("a1", n.In("x")));
  t = n.Bias("a2", n.Scale("m2", n.Conv("c", t)));
  Graph g = n.Finish(n.Relu("r", t));
  CHECK(GroupLines(g, PartitionOf(g, "seed"), "seed") ==
        Lines{"opu a1:add_pre,m1:mul_pre,c:ipa,m2:mul,a2:add,r:compare"});
  // The presets' datapath has no pre-adder or pre-multiplier: the adder and
  // the multiplier before the conv each take a pass of their own.
  CHECK(GroupLines(g, PartitionOf(g)) ==
        Lines{"opu a1:add", "opu m1:mul", "opu c:ipa,m2:mul,a2:add,r:compare"});
}

TEST_CASE("case 8: identity residual joins the third conv's group at res_add") {
  Net n;
  TensorId r3 = n.Relu("r3", n.Bias("a1", n.Conv("c1", n.In("x"))));
  TensorId r6 = n.Relu("r6", n.Bias("a2", n.Conv("c2", r3)));
  TensorId s = n.Add("s", n.Bias("a3", n.Conv("c3", r6)), r3);
  Graph g = n.Finish(n.Relu("out", s));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu c1:ipa,a1:add,r3:compare", "opu c2:ipa,a2:add,r6:compare",
                                     "opu c3:ipa,a3:add,s:res_add,out:compare"});
  CHECK(part.groups[2].inputs.size() == 2);  // r6 streams in, r3 is read for the residual
}

TEST_CASE("case 9: residual after the activation, and before a pool") {
  Net n;
  TensorId x = n.In("x");
  TensorId e = n.Relu("e", n.Conv("c0", x));
  TensorId r = n.Relu("r", n.Bias("a", n.Conv("c", e)));
  Graph g = n.Finish(n.Add("res", r, e));
  CHECK(GroupLines(g, PartitionOf(g)) ==
        Lines{"opu c0:ipa,e:compare", "opu c:ipa,a:add,r:compare,res:res_add"});

  Net m;
  TensorId y = m.In("x");
  TensorId f = m.Relu("e", m.Conv("c0", y));
  TensorId s = m.Add("res", m.Relu("r", m.Conv("c", f)), f);
  Graph h = m.Finish(m.MaxPool("pool", s));
  CHECK(GroupLines(h, PartitionOf(h)) ==
        Lines{"opu c0:ipa,e:compare", "opu c:ipa,r:compare,res:res_add,pool:pool"});
}

TEST_CASE("case 10: projection shortcut, the add joins the later operand's group") {
  Net n;
  TensorId x = n.In("x");
  TensorId main = n.Conv("cb", n.Relu("ra", n.Conv("ca", x)));
  TensorId shortcut = n.Conv("cs", x);
  Graph g = n.Finish(n.Relu("r", n.Add("add", main, shortcut)));
  CHECK(GroupLines(g, PartitionOf(g)) ==
        Lines{"opu ca:ipa,ra:compare", "opu cb:ipa", "opu cs:ipa,add:res_add,r:compare"});
}

TEST_CASE("case 11: concat heads the group of the conv that reads it") {
  Net n;
  TensorId r0 = n.Relu("r0", n.Conv("c0", n.In("x")));
  TensorId a = n.Relu("ra", n.Conv("ca", r0));
  TensorId b = n.Relu("rb", n.Conv("cb", r0));
  TensorId cat = n.b.Op(OpKind::kConcat, "cat", {a, b}, Attrs({{"axis", int64_t{3}}}));
  Graph g = n.Finish(n.Conv("cc", cat, 1, 8, 4));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu c0:ipa,r0:compare", "opu ca:ipa,ra:compare",
                                     "opu cb:ipa,rb:compare", "opu cat:mem_rd,cc:ipa"});
  CHECK(ReasonOf(g, part, "cat") == "concat reads its inputs from memory: it heads a group");
}

TEST_CASE("case 12: upsample ends a group, concat with an earlier layer starts one") {
  Net n;
  TensorId e = n.Relu("e", n.Conv("ce", n.In("x")));                                   // 8x8
  TensorId l = n.Unary(OpKind::kRelu6, "l", n.Bias("a", n.Conv("c", e, 1, 4, 4, 2)));  // 4x4
  TensorId up = n.b.Op(OpKind::kResizeNearest, "up", {l}, Attrs({{"size", Ints({8, 8})}}));
  TensorId cat = n.b.Op(OpKind::kConcat, "cat", {up, e}, Attrs({{"axis", int64_t{-1}}}));
  TensorId c2 = n.Conv("c2", cat, 1, 8, 4);
  Graph g = n.Finish(n.Relu("r", c2));
  CHECK(GroupLines(g, PartitionOf(g)) == Lines{"opu ce:ipa,e:compare",
                                               "opu c:ipa,a:add,l:compare,up:upsample",
                                               "opu cat:mem_rd,c2:ipa,r:compare"});

  Net m;  // nothing follows upsample
  TensorId u = m.b.Op(OpKind::kResizeNearest, "up", {m.Relu("r1", m.Conv("c", m.In("x")))},
                      Attrs({{"size", Ints({16, 16})}, {"half_pixel_centers", true}}));
  Graph h = m.Finish(m.Relu("r2", u));
  const HwPartition part = PartitionOf(h);
  CHECK(GroupLines(h, part) == Lines{"opu c:ipa,r1:compare,up:upsample", "opu r2:compare"});
  CHECK(ReasonOf(h, part, "r2") == "nothing follows upsample in group 0");
}

TEST_CASE("case 13: what the datapath cannot run goes to the CPU, never into a group") {
  Net n;
  TensorId r = n.Relu("r", n.Conv("c", n.In("x")));
  TensorId flat = n.b.Op(OpKind::kReshape, "flat", {r}, Attrs({{"new_shape", Ints({1, 256})}}));
  Graph g = n.Finish(n.b.Op(OpKind::kFullyConnected, "fc", {flat, n.Const("w", {10, 256})}));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu c:ipa,r:compare", "cpu flat", "opu fc:ipa"});
  CHECK(ReasonOf(g, part, "flat") == "reshape: a layout change the datapath does not make");
  CHECK(ReasonOf(g, part, "fc") == "reads 'flat' from the CPU (flat)");

  Net m;
  Graph h = m.Finish(m.Unary(OpKind::kSigmoid, "sig", m.Conv("c", m.In("x"))));
  const HwPartition q = PartitionOf(h);
  CHECK(GroupLines(h, q) == Lines{"opu c:ipa", "cpu sig"});
  CHECK(ReasonOf(h, q, "sig") ==
        "sigmoid: on f32 it is not a comparator op; quantized it becomes a table");
}

TEST_CASE("case 14: the graph input read by two groups is an input of both") {
  Net n;
  TensorId x = n.In("x");
  TensorId cat = n.b.Op(OpKind::kConcat, "cat", {n.Conv("ca", x), n.Conv("cb", x)},
                        Attrs({{"axis", int64_t{3}}}));
  Graph g = n.Finish(cat);
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu ca:ipa", "opu cb:ipa", "opu cat:mem_rd"});
  CHECK(part.groups[0].inputs == std::vector<TensorId>{x});
  CHECK(part.groups[1].inputs == std::vector<TensorId>{x});
  CHECK(ReasonOf(g, part, "cb") == "reads graph input 'x' from DRAM");
}

TEST_CASE("case 15: a sibling joins only where the group can store both values") {
  auto build = [] {
    Net n;
    TensorId r0 = n.Relu("r0", n.Conv("c0", n.In("x")));
    TensorId r1 = n.Relu("r1", n.Conv("c1", r0));
    TensorId p = n.MaxPool("p", r0);
    return n.Finish(n.Add("out", r1, p));
  };
  const Graph g = build();
  // opu1024 stores a compare tap: r0 leaves the group as a second output; the
  // add cannot join p's group (it would wait for group 1, which reads r0).
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) ==
        Lines{"opu c0:ipa,r0:compare,p:pool", "opu c1:ipa,r1:compare,out:res_add"});
  CHECK(part.groups[0].outputs.size() == 2);
  CHECK(PlaceOf(g, part, "out").placement == Placement::kJoined);

  // tiny stores one value per group: p opens a group, and the add joins it.
  const HwPartition small = PartitionOf(g, "tiny");
  CHECK(GroupLines(g, small, "tiny") ==
        Lines{"opu c0:ipa,r0:compare", "opu c1:ipa,r1:compare", "opu p:pool,out:res_add"});
  CHECK(ReasonOf(g, small, "p") ==
        "joining group 0 would bury r0's value inside it while c1 reads it, and comparator results"
        " cannot be stored (store.taps)");
}

}  // namespace
}  // namespace opuc
