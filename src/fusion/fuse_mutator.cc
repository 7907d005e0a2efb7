//===- src/fusion/fuse_mutator.cc - Groups become fused functions ---------===//
//
// TVM's FuseMutator over opuc's IR. Each group of two or more ops (collected
// by fused_groups.cc, its IR nodes in graph order, the root last) becomes a
// body graph: a member's input that another member writes is read inside; a
// one-element constant is copied in; anything else becomes a parameter on
// first use (TVM's GetOrAllocParam), and the outside tensor the matching
// argument.
//
// Speed matters (a graph of 10^6 ops must take well under a second): every
// check runs first, on the compact forward graph, so that an error leaves
// the graph as it was; then two passes over the graph in order plan and
// build the bodies, moving (not copying) members' nodes and inner values
// into bodies sized exactly.
//
//===----------------------------------------------------------------------===//
#include "opuc/fusion/fuse_mutator.h"

#include <algorithm>
#include <memory>

#include "fused_groups.h"
#include "opuc/ir/id_vector.h"

namespace opuc {
namespace {

using fusion::FusedGroups;

/// Adds `op` to a body's name, TVM style ("fused_conv2d_add_relu"), up to
/// about 60 characters and then "_etc".
void AppendToName(std::string& name, OpKind op) {
  if (name.size() <= 60) {
    name += '_';
    name += OpName(op);
  } else if (name.compare(name.size() - 4, 4, "_etc") != 0) {
    name += "_etc";
  }
}

/// Builds every group's function in two passes over the graph in order, so
/// the graph's (large, scattered) nodes and tensors are read front to back
/// even when a group's members lie far apart:
///   Plan:  per group, its parameters (TVM's GetOrAllocParam: distinct
///          outside tensors, in order of first use) and copied constants,
///          and for every member input where its value will come from;
///   Build: bodies sized exactly, members' nodes and inner values moved in,
///          each fused node appended where its root was.
class FunctionBuilder {
 public:
  FunctionBuilder(Graph& graph, const IndexedForwardGraph& forward, const FusedGroups& groups)
      : graph_(graph),
        groups_(groups),
        open_(groups.count()),
        simple_constant_(graph.tensors.size(), false),
        value_group_(graph.tensors.size(), -1),
        value_id_(graph.tensors.size(), kNoTensor) {
    for (int32_t g : Ids<int32_t>(open_.size()))
      open_[g].root = groups.members[groups.begin[static_cast<size_t>(g) + 1] - 1];
    for (int32_t f : Ids<int32_t>(forward.size()))
      if (forward.IsSimpleConstant(f)) simple_constant_[forward.node(f).ref] = true;
  }

  void Plan() {
    for (size_t n = 0; n < graph_.nodes.size(); ++n) {
      const int32_t g = groups_.group_of_node[n];
      if (g < 0) continue;
      Open& open = open_[g];
      const Node& node = graph_.nodes[n];
      for (TensorId in : node.inputs) {
        if (in == kNoTensor) continue;
        if (value_group_[in] == g) {
          slot_.push_back(kValueSlot);
          continue;
        }
        if (simple_constant_[in]) {
          slot_.push_back(kFirstConstantSlot - IndexOf(open.constants, in));
          continue;
        }
        slot_.push_back(IndexOf(open.args, in));
      }
      for (TensorId out : node.outputs) value_group_[out] = g;
      open.values += static_cast<uint32_t>(node.outputs.size());
    }
  }

  /// Rewrites the node list in place (what stays or is new is written over
  /// what was already read); `renumber` gives the outside ids their new
  /// values.
  template <typename Renumber>
  void Build(Renumber renumber) {
    size_t slot = 0, kept = 0;
    auto keep = [&](Node&& node) {
      Node& place = graph_.nodes[kept++];
      if (&place != &node) place = std::move(node);
      renumber(place);
    };
    for (size_t n = 0; n < graph_.nodes.size(); ++n) {
      const int32_t g = groups_.group_of_node[n];
      Node& node = graph_.nodes[n];
      if (g < 0) {
        keep(std::move(node));
        continue;
      }
      Open& open = open_[g];
      const bool root = open.root == static_cast<NodeId>(n);
      if (!open.body) Start(open, static_cast<size_t>(g));
      Graph& body = *open.body;
      AppendToName(body.name, node.op);
      const auto params = static_cast<TensorId>(open.args.size());
      for (TensorId& in : node.inputs) {
        if (in == kNoTensor) continue;
        const int32_t s = slot_[slot++];
        if (s == kValueSlot) {
          in = value_id_[in];
        } else if (s >= 0) {  // parameters are numbered in order of first use
          if (s == open.params_set) SetParam(body.tensor(open.params_set++), in);
          in = s;
        } else {
          const int32_t j = kFirstConstantSlot - s;  // so are the constants
          if (j == open.constants_set)
            body.tensor(params + open.constants_set++) = graph_.tensor(in);
          in = params + j;
        }
      }
      std::vector<TensorId> outside_outputs = root ? node.outputs : std::vector<TensorId>();
      for (TensorId& out : node.outputs) {
        Tensor& value = graph_.tensor(out);
        value_id_[out] = static_cast<TensorId>(body.tensors.size());
        body.tensors.push_back(root ? Tensor(value) : std::move(value));  // the root's stays too
        out = value_id_[out];
      }
      body.nodes.push_back(std::move(node));
      if (!root) continue;
      // The fused node takes the root's place, name and outputs.
      Node call;
      call.op = OpKind::kFused;
      call.name = body.nodes.back().name;
      call.inputs = std::move(open.args);
      call.outputs = std::move(outside_outputs);
      for (TensorId out : call.outputs) body.outputs.push_back(value_id_[out]);
      call.body = std::move(open.body);
      keep(std::move(call));
      open = Open();
    }
    graph_.nodes.resize(kept);
  }

 private:
  /// A group's function while it is built.
  struct Open {
    std::vector<TensorId> args;       // outside tensors passed, in parameter order
    std::vector<TensorId> constants;  // outside one-element constants copied in
    uint32_t values = 0;              // tensors its members write
    NodeId root = -1;                 // its last member
    int32_t params_set = 0;           // parameters (constants) filled in so far
    int32_t constants_set = 0;
    std::shared_ptr<Graph> body;
  };
  static constexpr int32_t kValueSlot = -1;          // another member's value
  static constexpr int32_t kFirstConstantSlot = -2;  // -2 - j: constant j

  /// The position of `id` in `list`, appended if new (groups read few
  /// outside tensors, so a linear scan, as TVM's).
  static int32_t IndexOf(std::vector<TensorId>& list, TensorId id) {
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i] == id) return static_cast<int32_t>(i);
    list.push_back(id);
    return static_cast<int32_t>(list.size() - 1);
  }

  /// Makes `param` a parameter of the outside tensor `in`'s type.
  void SetParam(Tensor& param, TensorId in) const {
    const Tensor& outside = graph_.tensor(in);
    param.name = outside.name;
    param.dtype = outside.dtype;
    param.shape = outside.shape;
    param.fixed_point = outside.fixed_point;
  }

  /// Allocates group g's body: parameters, then the copied constants, then
  /// room for the members' values. Parameters and constants are filled in
  /// by the member that first reads them: the outside tensor was written
  /// shortly before that member, so it is still in cache, where the first
  /// member of a group (here) may lie far before it.
  void Start(Open& open, size_t g) {
    open.body = std::make_shared<Graph>();
    Graph& body = *open.body;
    const size_t members = groups_.begin[g + 1] - groups_.begin[g];
    body.name.reserve(std::min<size_t>(68, 5 + 12 * members));  // one allocation, not several
    body.name = "fused";
    body.tensors.reserve(open.args.size() + open.constants.size() + open.values);
    body.nodes.reserve(members);
    body.inputs.reserve(open.args.size());
    for (size_t i = 0; i < open.args.size(); ++i) body.inputs.push_back(static_cast<TensorId>(i));
    body.tensors.resize(open.args.size() + open.constants.size());
  }

  Graph& graph_;
  const FusedGroups& groups_;
  IdVector<int32_t, Open> open_;              // per group
  IdVector<TensorId, bool> simple_constant_;  // per tensor: a one-element constant (copied in)
  IdVector<TensorId, int32_t> value_group_;   // per tensor: the group whose member writes it, or -1
  IdVector<TensorId, TensorId> value_id_;     // per tensor a member writes: its id in the body
  std::vector<int32_t> slot_;                 // per member input, in graph order (see Plan)
};

template <typename Id>
std::vector<Id> Iota(size_t n) {
  std::vector<Id> ids(n);
  for (size_t i = 0; i < n; ++i) ids[i] = static_cast<Id>(i);
  return ids;
}

/// Nodes outside groups keep their order; a fused node takes its root's place.
std::vector<NodeId> NodeIdsAfterFusion(const FusedGroups& groups, size_t nodes) {
  std::vector<NodeId> id(nodes);
  NodeId kept = 0;
  for (size_t n = 0; n < nodes; ++n) {
    const int32_t g = groups.group_of_node[n];
    if (g < 0 || groups.members[groups.begin[static_cast<size_t>(g) + 1] - 1] == NodeId(n))
      id[n] = kept++;
  }
  for (size_t n = 0; n < nodes; ++n)
    if (const int32_t g = groups.group_of_node[n]; g >= 0)
      id[n] = id[static_cast<size_t>(groups.members[groups.begin[static_cast<size_t>(g) + 1] - 1])];
  return id;
}

}  // namespace

Expected<FuseCounts> ApplyPartition(Graph& graph, const IndexedForwardGraph& forward,
                                    const Partition& partition, FuseRenumbering* renumbering) {
  OPUC_ASSIGN_OR_RETURN(FusedGroups groups, fusion::CollectFusedGroups(graph, forward, partition));
  FuseCounts counts;
  if (groups.count() == 0) {
    if (renumbering)
      *renumbering = {Iota<NodeId>(graph.nodes.size()), Iota<TensorId>(graph.tensors.size())};
    return counts;
  }
  OPUC_RETURN_IF_ERROR(fusion::CheckFusedGroups(forward, partition, groups, graph));

  // Nothing fails from here on. What stays outside is renumbered as the
  // node list is rebuilt, and then the tensors are compacted in place.
  const std::vector<TensorId> new_id =
      fusion::TensorIdsAfterFusion(forward, partition, groups, graph);
  if (renumbering) {
    renumbering->node = NodeIdsAfterFusion(groups, graph.nodes.size());
    renumbering->tensor = new_id;
  }
  auto renumber = [&](std::vector<TensorId>& ids) {
    for (TensorId& id : ids)
      if (id != kNoTensor) id = new_id[static_cast<size_t>(id)];
  };
  FunctionBuilder builder(graph, forward, groups);
  builder.Plan();
  builder.Build([&](Node& node) {
    renumber(node.inputs);
    renumber(node.outputs);
  });
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    const TensorId id = new_id[t];
    if (id != kNoTensor && static_cast<size_t>(id) != t)
      graph.tensors[static_cast<size_t>(id)] = std::move(graph.tensors[t]);  // id < t
  }
  size_t kept = 0;
  for (TensorId id : new_id) kept += id != kNoTensor;
  graph.tensors.resize(kept);
  renumber(graph.inputs);
  renumber(graph.outputs);
  counts.fused_nodes = static_cast<int64_t>(groups.count());
  counts.ops_fused = static_cast<int64_t>(groups.members.size());
  return counts;
}

Expected<FuseCounts> FuseOps(Graph& graph, const FuseOptions& options, Partition* partition,
                             IndexedForwardGraph* forward) {
  OPUC_ASSIGN_OR_RETURN(IndexedForwardGraph built, BuildIndexedForwardGraph(graph));
  OPUC_ASSIGN_OR_RETURN(Partition groups, PartitionGraph(built, options));
  // The decisions are for reports; when nobody asked, their memory goes
  // back before the functions are built.
  if (!partition) std::vector<FuseDecision>().swap(groups.decisions);
  OPUC_ASSIGN_OR_RETURN(FuseCounts counts, ApplyPartition(graph, built, groups));
  if (partition) *partition = std::move(groups);
  if (forward) *forward = std::move(built);
  return counts;
}

}  // namespace opuc
