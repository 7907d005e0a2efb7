//===- bench/fuse_ops_bench.cc - FuseOps: binary lifting vs TVM's walk -----===//
//
// Claim (issue 6): the post-dominator tree by binary lifting costs
// O(E log depth) where TVM's walk costs O(depth) per least common ancestor,
// so the ratio grows with the depth of the graph; and the whole FuseOps pass
// (forward graph, tree, partition, fused functions) takes under a second on
// a graph of 10^6 ops, on one core.
//
// Graphs are random layered DAGs (fixed seeds): `width` lanes of `depth`
// layers; each op continues its lane and, half the time, also reads a
// random lane of the layer before (an add), so fan-outs meet again only far
// down; a tree of adds joins the last layer. Ops are mostly elemwise and
// broadcast, with fully_connected (out_ewise_fusable), reshape
// (injective), mean + add (a reduction) and softmax (opaque) mixed in.
// "deep" graphs have 2 lanes, "wide" ones 512; a sweep at 10^5 ops varies
// the width. TVM's walk runs on a budget of steps and is reported as
// stopped (with a lower bound on the ratio) where it would take minutes.
// Times are the thread's CPU time (one core, whatever else the machine
// runs), and for the whole pass also wall time; each graph is measured in
// a fresh child process.
//
//   build/bench/fuse_ops_bench [max_walk_seconds [row [--whole]]]
//
// max_walk_seconds defaults to 20; `row` keeps the rows whose name contains
// it ("deep 1e6"); --whole times only the whole pass (for a profiler). The
// whole pass is reported as the thread's CPU time and as wall time.
//
//===----------------------------------------------------------------------===//
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "opuc/fusion/fuse_mutator.h"
#include "opuc/fusion/post_dominator_tree.h"
#include "opuc/tensor_io/random_input.h"

namespace {

using namespace opuc;
/// CPU time of this thread: what "on one core" means, whatever else the
/// machine is running.
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
};

double Seconds(Clock::time_point start) { return Clock::now() - start; }

/// Wall-clock time, for comparison: on a machine shared with other work it
/// includes the time the thread waited for a core.
double WallNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

class Rng : public opuc::SplitMix64 {  // the same graphs everywhere
 public:
  using SplitMix64::SplitMix64;
  int Below(int n) { return static_cast<int>(Next() % static_cast<uint64_t>(n)); }
};

/// `width` lanes of `depth` layers, joined at the end by a tree of adds.
/// Even lanes carry: each op has one reader, the next op of its lane, and
/// half the time it also takes in a value from a random odd lane. Odd lanes
/// feed: their values go on down their lane and, half the time, into a
/// carrier of the next layer. A feeder's two readers meet only at the end,
/// so its post-dominator is far, and TVM's walk climbs a carrier lane to
/// find it: O(depth) per feeder, which binary lifting does in O(log depth).
class LayeredDag {
 public:
  LayeredDag(int width, int depth, uint64_t seed) : rng_(seed) {
    graph_.name = "layered";
    const TensorId x = Value({1, 8});
    graph_.inputs.push_back(x);
    std::vector<TensorId> layer(static_cast<size_t>(std::max(width, 2)), x);
    const int feeders = static_cast<int>(layer.size() / 2);
    for (int l = 0; l < depth; ++l) {
      std::vector<TensorId> next(layer.size());
      for (size_t w = 0; w < layer.size(); ++w) {
        const bool carrier = w % 2 == 0;
        const TensorId fed = layer[static_cast<size_t>(2 * rng_.Below(feeders) + 1)];
        next[w] = carrier ? Carry(layer[w], fed) : Feed(layer[w]);
      }
      layer = std::move(next);
    }
    while (layer.size() > 1) {  // a tree of adds joins the lanes
      std::vector<TensorId> joined;
      for (size_t i = 0; i + 1 < layer.size(); i += 2)
        joined.push_back(Op(OpKind::kAdd, {layer[i], layer[i + 1]}));
      if (layer.size() % 2) joined.push_back(layer.back());
      layer = std::move(joined);
    }
    graph_.outputs.push_back(layer[0]);
  }
  Graph Take() { return std::move(graph_); }

 private:
  TensorId Value(Shape shape) {
    Tensor t;
    t.name = "t" + std::to_string(graph_.tensors.size());
    t.shape = std::move(shape);
    return graph_.AddTensor(std::move(t));
  }
  TensorId Op(OpKind op, std::vector<TensorId> inputs, Attributes attrs = {}) {
    Node node;
    node.op = op;
    node.inputs = std::move(inputs);
    node.outputs = {Value({1, 8})};
    node.attrs = std::move(attrs);
    node.name = graph_.tensor(node.outputs[0]).name;
    graph_.AddNode(std::move(node));
    return graph_.nodes.back().outputs[0];
  }
  TensorId Carry(TensorId lane, TensorId fed) {
    const int dice = rng_.Below(100);
    if (dice < 50) return Op(dice < 35 ? OpKind::kAdd : OpKind::kMul, {lane, fed});
    if (dice < 90) return Op(dice < 70 ? OpKind::kRelu : OpKind::kTanh, {lane});
    return FullyConnected(lane);
  }
  TensorId Feed(TensorId lane) {
    const int dice = rng_.Below(100);
    if (dice < 70) return Op(dice < 35 ? OpKind::kSigmoid : OpKind::kRelu, {lane});
    if (dice < 85) return FullyConnected(lane);
    if (dice < 98) {
      Attributes shape;
      shape.Set("new_shape", std::vector<int64_t>{1, 8});
      return Op(OpKind::kReshape, {lane}, shape);
    }
    return Op(OpKind::kSoftmax, {lane});
  }
  TensorId FullyConnected(TensorId lane) {
    const TensorId weight =
        graph_.AddConstant("w" + std::to_string(graph_.tensors.size()), DType::kF32, {8, 8},
                           ConstantData::Copy(kZeros.data(), kZeros.size()));
    return Op(OpKind::kFullyConnected, {lane, weight});
  }

  static inline const std::vector<uint8_t> kZeros = std::vector<uint8_t>(256, 0);
  Rng rng_;
  Graph graph_;
};

/// Page faults of this process so far (fresh memory touched).
long MinorFaults() {
  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// Command-line choices: only rows whose name contains `filter`; with
/// `only_whole`, only the whole pass (for profiling it).
std::string filter;
bool only_whole = false;

struct Row {
  std::string name;
  int width = 0, depth = 0;
};

void Measure(const Row& row, uint64_t seed, double max_walk_seconds, double ns_per_step) {
  // The whole pass, on the graph as built; then the same graph again, for
  // timing the parts.
  Graph graph = LayeredDag(row.width, row.depth, seed).Take();
  const size_t ops = graph.nodes.size();
  const long faults_before = MinorFaults();
  const double wall_start = WallNow();
  auto start = Clock::now();
  Expected<FuseCounts> counts = FuseOps(graph, FuseOptions{});
  const double whole = Seconds(start);
  const double whole_wall = WallNow() - wall_start;
  const long faults = MinorFaults() - faults_before;
  if (only_whole) {
    std::printf("%-14s %8zu  FuseOps %.1f ms CPU, %.1f ms wall, %ld page faults\n",
                row.name.c_str(), ops, whole * 1e3, whole_wall * 1e3, faults);
    return;
  }
  if (!counts.ok())
    std::exit((std::fprintf(stderr, "%s\n", counts.status().ToString().c_str()), 1));
  graph = LayeredDag(row.width, row.depth, seed).Take();
  Expected<IndexedForwardGraph> forward = BuildIndexedForwardGraph(graph);
  if (!forward.ok())
    std::exit((std::fprintf(stderr, "%s\n", forward.status().ToString().c_str()), 1));
  graph = Graph();

  // The fast tree: the best of three builds (the first one also pays for
  // touching fresh memory).
  PostDominatorTree fast;
  double fast_tree = 1e30;
  for (int run = 0; run < 3; ++run) {
    start = Clock::now();
    fast = BuildPostDominatorTree(*forward);
    fast_tree = std::min(fast_tree, Seconds(start));
  }
  const int tree_depth = *std::max_element(fast.depth.begin(), fast.depth.end());
  start = Clock::now();
  Expected<Partition> partition = PartitionGraph(*forward, fast, FuseOptions{});
  const double fast_partition = fast_tree + Seconds(start);

  TvmWalkBudget budget;
  budget.max_steps = static_cast<uint64_t>(max_walk_seconds * 1e9 / ns_per_step);
  start = Clock::now();
  const PostDominatorTree tvm = BuildPostDominatorTreeTvmWalk(*forward, &budget);
  const double tvm_tree = Seconds(start);
  std::string tvm_text, partition_text, ratio_text;
  char buffer[64];
  if (budget.exhausted) {
    std::snprintf(buffer, sizeof buffer, "stopped %.1f s", tvm_tree);
    tvm_text = buffer;
    partition_text = "-";
    std::snprintf(buffer, sizeof buffer, ">%.0fx", tvm_tree / fast_tree);
    ratio_text = buffer;
  } else {
    if (tvm.parent != fast.parent) std::exit((std::fprintf(stderr, "trees differ!\n"), 1));
    start = Clock::now();
    Expected<Partition> again = PartitionGraph(*forward, tvm, FuseOptions{});
    const double tvm_partition = tvm_tree + Seconds(start);
    if (!again.ok() || again->group != partition->group)
      std::exit((std::fprintf(stderr, "partitions differ!\n"), 1));
    std::snprintf(buffer, sizeof buffer, "%.2f ms", tvm_tree * 1e3);
    tvm_text = buffer;
    std::snprintf(buffer, sizeof buffer, "%.2f ms", tvm_partition * 1e3);
    partition_text = buffer;
    std::snprintf(buffer, sizeof buffer, "%.1fx", tvm_tree / fast_tree);
    ratio_text = buffer;
  }

  std::printf("%-14s %8zu %5d %7d %7d %11.2f %15s %9s %12.2f %14s %10.1f %10.1f %8lld\n",
              row.name.c_str(), ops, row.width, row.depth, tree_depth, fast_tree * 1e3,
              tvm_text.c_str(), ratio_text.c_str(), fast_partition * 1e3, partition_text.c_str(),
              whole * 1e3, whole_wall * 1e3, static_cast<long long>(counts->fused_nodes));
  std::fflush(stdout);
}

/// Runs Measure in a child process, so that each graph starts from a fresh
/// heap rather than one a previous graph of 10^6 ops left fragmented.
void MeasureApart(const Row& row, uint64_t seed, double max_walk_seconds, double ns_per_step) {
  if (row.name.find(filter) == std::string::npos) return;
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    Measure(row, seed, max_walk_seconds, ns_per_step);
    std::fflush(stdout);
    std::_Exit(0);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    std::exit((std::fprintf(stderr, "%s: the measurement failed\n", row.name.c_str()), 1));
}

/// Nanoseconds per step of TVM's walk, measured on a mid-sized deep graph.
double CalibrateWalk() {
  Graph graph = LayeredDag(2, 5000, 1).Take();
  Expected<IndexedForwardGraph> forward = BuildIndexedForwardGraph(graph);
  TvmWalkBudget budget;
  const auto start = Clock::now();
  BuildPostDominatorTreeTvmWalk(*forward, &budget);
  return std::max(0.1,
                  Seconds(start) * 1e9 / static_cast<double>(std::max<uint64_t>(budget.steps, 1)));
}

}  // namespace

int main(int argc, char** argv) {
  const double max_walk = argc > 1 ? std::max(0.1, std::atof(argv[1])) : 20.0;
  if (argc > 2) filter = argv[2];
  only_whole = argc > 3 && std::string(argv[3]) == "--whole";
  const double ns_per_step = CalibrateWalk();
  std::printf("TVM walk: %.2f ns per parent step (calibrated); stopped after ~%.0f s\n\n",
              ns_per_step, max_walk);
  std::printf("%-14s %8s %5s %7s %7s %11s %15s %9s %12s %14s %10s %10s %8s\n", "graph", "ops",
              "width", "layers", "tree", "lifting", "TVM walk", "ratio", "partition",
              "partition TVM", "FuseOps ms", "FuseOps ms", "fused");
  std::printf("%-14s %8s %5s %7s %7s %11s %15s %9s %12s %14s %10s %10s %8s\n", "", "", "", "",
              "depth", "tree ms", "tree", "", "lifting ms", "walk", "(whole)", "(wall)", "groups");
  std::vector<Row> rows;
  for (int exp = 3; exp <= 6; ++exp) {
    int n = 1;
    for (int i = 0; i < exp; ++i) n *= 10;
    rows.push_back({"deep 1e" + std::to_string(exp), 2, n / 2});
    rows.push_back({"wide 1e" + std::to_string(exp), 512, std::max(1, n / 512)});
  }
  for (const Row& row : rows) MeasureApart(row, 42, max_walk, ns_per_step);
  std::printf("\n10^5 ops, narrower and deeper:\n");
  for (int width : {4096, 1024, 256, 64, 16, 4, 2})
    MeasureApart({"sweep w" + std::to_string(width), width, 100000 / width}, 7, max_walk,
                 ns_per_step);
  return 0;
}
