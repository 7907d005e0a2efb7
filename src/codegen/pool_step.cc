//===- src/codegen/pool_step.cc - Reading a group's pool --------------===//
//
// numerics.md §5: max_pool2d, avg_pool2d and mean over the tile the earlier
// stages leave in the accumulator: windows of any size and stride Pool's
// fields hold, overlapping or not, starting in up to Pool.pad_y x pad_x
// pixels of padding (spans.h: how tiles share them); and one window over
// the whole map (a global pool, a mean over H and W), which gathers its
// taps tile by tile.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <vector>

#include "group_reader.h"
#include "opuc/ir/conv_geometry.h"
#include "opuc/numerics/fixed_point.h"
#include "support/format.h"

namespace opuc::codegen {
namespace {

constexpr int64_t kMaxWindow = 1023;             // Pool.size_y and friends: 10 bits
constexpr int64_t kMaxPad = 7;                   // Pool.pad_y, pad_x: 3 bits
constexpr int64_t kMaxCount = (1 << 20) - 1;     // Average.count: 20 bits
constexpr int64_t kAccLimit = int64_t{1} << 47;  // the accumulator's 48 bits

// The pool's window as the node's attributes give it.
struct Window {
  Pair filter{1, 1}, strides{1, 1};
  Activation activation = Activation::kNone;
  bool global = false;
  Pair pad_before{0, 0};
};

Expected<Window> WindowOfNode(const Graph& graph, const HwPartition& p, NodeId id) {
  const Node& n = graph.node(id);
  const Shape& xs = graph.tensor(n.inputs[0]).shape;
  const Shape& ys = graph.tensor(n.outputs[0]).shape;
  if (xs.size() != 4) return NotYet(graph, p, id, "a pool of a value that is not 1xHxWxC");
  Window w;
  if (n.op == OpKind::kMean) {
    std::vector<int64_t> axes;
    for (int64_t a : MeanAttrs::Of(n.attrs).axes) axes.push_back(a < 0 ? a + 4 : a);
    std::sort(axes.begin(), axes.end());
    if (axes != std::vector<int64_t>{1, 2})
      return NotYet(graph, p, id, "a mean over axes other than height and width");
    w.filter = w.strides = {xs[1], xs[2]};
    w.global = true;
    return w;
  }
  if (ys.size() != 4) return NotYet(graph, p, id, "a pool whose value is not 1xHxWxC");
  if (n.op == OpKind::kMaxPool2D) {
    const auto a = MaxPool2DAttrs::Of(n.attrs);
    w = {a.filter, a.strides, a.activation, false};
  } else {
    const auto a = AvgPool2DAttrs::Of(n.attrs);
    w = {a.filter, a.strides, a.activation, false};
  }
  w.global = ys[1] == 1 && ys[2] == 1 && w.filter[0] >= xs[1] && w.filter[1] >= xs[2];
  if (w.global) return w;
  const WindowGeometry geo = WindowOf(w.strides, Pair{1, 1}, xs, ys, w.filter[0], w.filter[1]);
  if (geo.h.pad_before > kMaxPad || geo.w.pad_before > kMaxPad)
    return NotYet(graph, p, id,
                  Cat("a pool window that starts ", std::max(geo.h.pad_before, geo.w.pad_before),
                      " pixels in padding: Pool's pads reach ", kMaxPad));
  if (std::max({w.filter[0], w.filter[1], w.strides[0], w.strides[1]}) > kMaxWindow)
    return NotYet(graph, p, id, Cat("a pool window or stride above Pool's ", kMaxWindow));
  w.pad_before = {geo.h.pad_before, geo.w.pad_before};
  return w;
}

}  // namespace

Status ReadPool(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  if (n.inputs[0] != g.output)
    return NotYet(graph, p, id, "it does not read the group's last value");
  if (g.op == OpKind::kFullyConnected)
    return NotYet(graph, p, id, "a pool of a fully connected layer");
  OPUC_ASSIGN_OR_RETURN(const Window w, WindowOfNode(graph, p, id));
  OPUC_ASSIGN_OR_RETURN(int f_in, Fraction(graph, n.inputs[0]));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  PoolStep pool;
  pool.tensor = n.outputs[0];
  pool.average = n.op != OpKind::kMaxPool2D;
  pool.global = w.global;
  pool.kh = w.global ? g.out_h : w.filter[0];
  pool.kw = w.global ? g.out_w : w.filter[1];
  pool.sy = w.global ? g.out_h : w.strides[0];
  pool.sx = w.global ? g.out_w : w.strides[1];
  pool.pad_top = w.pad_before[0];
  pool.pad_left = w.pad_before[1];
  pool.out_h = w.global ? 1 : graph.tensor(pool.tensor).shape[1];
  pool.out_w = w.global ? 1 : graph.tensor(pool.tensor).shape[2];
  pool.format = graph.tensor(pool.tensor).dtype;
  OPUC_ASSIGN_OR_RETURN(auto range, Range(w.activation, f_out, pool.format, What(graph, id)));
  pool.clamp = {f_in - f_out, range.first, range.second};
  if (pool.average) {
    // Average: the shift is 5 bits, the count 20, and the scaled sum stays
    // in 48 bits (numerics.md §5's bound with the taps' largest magnitude).
    const int64_t taps = pool.kh * pool.kw;
    const IntegerBounds b = QuantizedBounds(g.out_format);
    const int up = std::max(0, f_out - f_in);
    if (f_in - f_out < -16 || f_in - f_out > 15)
      return NotYet(graph, p, id, "fraction lengths further apart than Average's shift reaches");
    if (taps > kMaxCount)
      return NotYet(graph, p, id,
                    Cat("an average of ", taps, " taps: Average counts to ", kMaxCount));
    if (taps * std::max(-b.lo, b.hi) >= (kAccLimit >> up))
      return NotYet(graph, p, id,
                    Cat("an average of ", taps, " taps scaled by 2^", up,
                        " leaves the accumulator's 48 bits"));
  } else {
    if (f_in - f_out < -32 || f_in - f_out > 31)
      return NotYet(graph, p, id, "fraction lengths further apart than Clamp's shift reaches");
    const auto before = g.OutputRange();
    pool.requant = f_in != f_out || range.first > before.first || range.second < before.second;
  }
  g.pool = pool;
  return OkStatus();
}

}  // namespace opuc::codegen
