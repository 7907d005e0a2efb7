//===- src/partition/reason.cc - Reasons as text ----------------------------===//
#include "opuc/partition/reason.h"

#include <cstdio>

#include "support/format.h"

namespace opuc {
namespace {

/// A model's name on one line: control characters as \n, \t or \xHH; every
/// other byte (braces, quotes, UTF-8) as it is.
std::string OneLine(const std::string& name) {
  std::string out;
  for (char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

class Formatter {
 public:
  Formatter(const Graph& graph, const std::vector<std::string>& stages)
      : graph_(graph), stages_(stages) {}

  std::string Part(const ReasonPart& r) const {
    switch (r.kind) {
      case ReasonKind::kJoined:
        return Cat("stage ", Stage(r.stage), " after ", Stage(r.other_stage), " in ",
                   Group(r.group));
      case ReasonKind::kCollectedPad:
        return Cat("collected by ", Node(r.node),
                   ": the res_adder reads the missing channels as zeros");
      case ReasonKind::kCollectedConstant:
        return Cat("collected by ", Node(r.node),
                   ": computed from constants when weights are packed");
      case ReasonKind::kSecondIpa: return Cat("second ipa in ", Group(r.group));
      case ReasonKind::kSecondPad: return Cat("second pad in ", Group(r.group));
      case ReasonKind::kPadAfterIpa:
        return Cat("a pad for an inner product after the ipa of ", Group(r.group),
                   " (one pad and one ipa per group)");
      case ReasonKind::kNothingFollows:
        return Cat("nothing follows ", Stage(r.stage), " in ", Group(r.group));
      case ReasonKind::kNoRepeat:
        return Cat(r.what, " cannot follow ", Stage(r.stage), " in ", Group(r.group),
                   ": no unit runs twice in a row");
      case ReasonKind::kNoStageAfter:
        return Cat("no stage after ", Stage(r.stage), " in ", Group(r.group), " runs ", r.what);
      case ReasonKind::kStageUsed:
        return Cat("stage ", Stage(r.stage), " is already used in ", Group(r.group));
      case ReasonKind::kStreamedInside:
        return Cat(Node(r.node), " reads ", Value(r.tensor), ", a value inside ", Group(r.group),
                   " that the datapath has streamed past");
      case ReasonKind::kWaitForItself:
        return Cat("joining ", Group(r.group), " would make it wait for itself: ", Value(r.tensor),
                   " comes from ", Group(r.other_group), ", which depends on it");
      case ReasonKind::kBuried:
        return Cat("joining ", Group(r.group), " would bury ", Node(r.node),
                   "'s value inside it while ",
                   r.other_node >= 0 ? Node(r.other_node) : std::string("the graph output"),
                   " reads it, and ", r.what.empty() ? std::string("it") : r.what + " results",
                   " cannot be stored (store.taps)");
      case ReasonKind::kTapInPlace:
        return Cat("joining ", Group(r.group), " would bury ", Node(r.node),
                   "'s value inside it while ",
                   r.other_node >= 0 ? Node(r.other_node) : std::string("the graph output"),
                   " reads it, and only a value that enters a pool or an upsample can be stored "
                   "from inside a group (the post stages after it work in place)");
      case ReasonKind::kTooManyStores:
        return Cat(Group(r.group), " would store ", r.count, " values; store.max_outputs is ",
                   r.limit);
      case ReasonKind::kHeadsGroup:
        return Cat(r.what, " reads its inputs from memory: it heads a group");
      case ReasonKind::kReadsConstant:
        return Cat("reads constant ", Value(r.tensor), " as its feature map");
      case ReasonKind::kReadsGraphInput:
        return Cat("reads graph input ", Value(r.tensor), " from DRAM");
      case ReasonKind::kReadsOffDatapath:
        return Cat("reads ", Value(r.tensor), " from ", Node(r.node),
                   ", which is not on a datapath stage");
      case ReasonKind::kReadsFromCpu:
        return Cat("reads ", Value(r.tensor), " from the CPU (", Node(r.node), ")");
      case ReasonKind::kStreamedPast:
        return Cat("reads ", Value(r.tensor), ", which ", Group(r.group),
                   " streamed past (it went on to ", Node(r.node), ")");
      case ReasonKind::kNoHdfgStage: return Cat(r.what, ": no stage of this OPU's HDFG runs it");
      case ReasonKind::kNotInDatapath: return Cat(r.what, ": ", r.detail);
    }
    return "?";
  }

 private:
  static std::string Group(int32_t id) { return id >= 0 ? Cat("group ", id) : "group ?"; }
  std::string Stage(int32_t s) const {
    if (s < 0 || static_cast<size_t>(s) >= stages_.size()) return "?";
    return stages_[static_cast<size_t>(s)];
  }
  std::string Node(NodeId n) const {
    if (n < 0 || static_cast<size_t>(n) >= graph_.nodes.size()) return "?";
    const std::string& name = graph_.node(n).name;
    return name.empty() ? Cat("#", n) : OneLine(name);
  }
  std::string Value(TensorId t) const {
    if (t < 0 || static_cast<size_t>(t) >= graph_.tensors.size()) return "?";
    return Cat("'", OneLine(graph_.tensor(t).name), "'");
  }

  const Graph& graph_;
  const std::vector<std::string>& stages_;
};

}  // namespace

const char* ReasonKindName(ReasonKind kind) {
  switch (kind) {
    case ReasonKind::kJoined: return "joined";
    case ReasonKind::kCollectedPad: return "collected_pad";
    case ReasonKind::kCollectedConstant: return "collected_constant";
    case ReasonKind::kSecondIpa: return "second_ipa";
    case ReasonKind::kSecondPad: return "second_pad";
    case ReasonKind::kPadAfterIpa: return "pad_after_ipa";
    case ReasonKind::kNothingFollows: return "nothing_follows";
    case ReasonKind::kNoRepeat: return "no_repeat";
    case ReasonKind::kNoStageAfter: return "no_stage_after";
    case ReasonKind::kStageUsed: return "stage_used";
    case ReasonKind::kStreamedInside: return "streamed_inside";
    case ReasonKind::kWaitForItself: return "wait_for_itself";
    case ReasonKind::kBuried: return "buried";
    case ReasonKind::kTapInPlace: return "tap_in_place";
    case ReasonKind::kTooManyStores: return "too_many_stores";
    case ReasonKind::kHeadsGroup: return "heads_group";
    case ReasonKind::kReadsConstant: return "reads_constant";
    case ReasonKind::kReadsGraphInput: return "reads_graph_input";
    case ReasonKind::kReadsOffDatapath: return "reads_off_datapath";
    case ReasonKind::kReadsFromCpu: return "reads_from_cpu";
    case ReasonKind::kStreamedPast: return "streamed_past";
    case ReasonKind::kNoHdfgStage: return "no_hdfg_stage";
    case ReasonKind::kNotInDatapath: return "not_in_datapath";
  }
  return "unknown";
}

std::string FormatReason(const Graph& graph, const std::vector<std::string>& stages,
                         const Reason& reason) {
  const Formatter formatter(graph, stages);
  std::string text;
  for (const ReasonPart& part : reason) text += (text.empty() ? "" : "; ") + formatter.Part(part);
  return text;
}

}  // namespace opuc
