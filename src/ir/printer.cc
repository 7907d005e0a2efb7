//===- src/ir/printer.cc - Stable text form of a graph --------------------===//
//
//   graph "tiny" {
//     input %x: f32[1,8,8,3]
//     %w: f32[4,3,3,3] = const 432 bytes fnv1a:9f3c21d0
//     %y: f32[1,8,8,4] = conv2d(%x, %w, _) {activation="relu", padding="same", ...}
//     output %y
//   }
//
// A fused node's body follows its line, printed the same way, four spaces
// further in.
//
//===----------------------------------------------------------------------===//
#include "opuc/ir/printer.h"

#include <cstdio>

#include "support/format.h"

namespace opuc {
namespace {

bool IsPlainName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '.' || c == '/' || c == '-' || c == ':';
    if (!plain) return false;
  }
  return true;
}

std::string Ref(const Graph& graph, TensorId id) {
  if (id == kNoTensor) return "_";
  if (id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) return Cat("%<bad ", id, ">");
  const std::string& name = graph.tensor(id).name;
  return IsPlainName(name) ? "%" + name : "%" + Quote(name);
}

std::string Hex32(uint32_t value) {
  char text[9];
  std::snprintf(text, sizeof(text), "%08x", value);
  return text;
}

std::string PrintAttributes(const Attributes& attrs) {
  if (attrs.empty()) return "";
  std::string text = " {";
  bool first = true;
  for (const auto& [name, value] : attrs.entries()) {
    if (!first) text += ", ";
    first = false;
    text += name + "=" + AttrValueToString(value);
  }
  return text + "}";
}

void AppendGraph(const Graph& graph, const std::string& indent, std::string& text);

std::string PrintNode(const Graph& graph, const Node& node, const std::string& indent) {
  std::string text = indent + "  ";
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (i) text += ", ";
    const TensorId out = node.outputs[i];
    text += Ref(graph, out);
    if (out >= 0 && static_cast<size_t>(out) < graph.tensors.size())
      text += ": " + PrintTensorType(graph.tensor(out));
  }
  text += Cat(" = ", OpName(node.op), "(");
  for (size_t i = 0; i < node.inputs.size(); ++i)
    text += (i ? ", " : "") + Ref(graph, node.inputs[i]);
  text += ")" + PrintAttributes(node.attrs);
  const bool named_like_output = !node.outputs.empty() && node.outputs[0] >= 0 &&
                                 static_cast<size_t>(node.outputs[0]) < graph.tensors.size() &&
                                 graph.tensor(node.outputs[0]).name == node.name;
  if (!node.name.empty() && !named_like_output) text += "  // " + Quote(node.name);
  text += "\n";
  if (node.body) AppendGraph(*node.body, indent + "    ", text);
  return text;
}

void AppendGraph(const Graph& graph, const std::string& indent, std::string& text) {
  text += Cat(indent, "graph ", Quote(graph.name), " {\n");
  for (const auto& [key, value] : graph.metadata)
    text += Cat(indent, "  meta ", Quote(key), " = ", Quote(value), "\n");
  for (TensorId in : graph.inputs) {
    text += indent + "  input " + Ref(graph, in);
    if (in >= 0 && static_cast<size_t>(in) < graph.tensors.size())
      text += ": " + PrintTensorType(graph.tensor(in));
    text += "\n";
  }
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    const Tensor& t = graph.tensors[i];
    if (!t.constant) continue;
    text += Cat(indent, "  ", Ref(graph, static_cast<TensorId>(i)), ": ", PrintTensorType(t),
                " = const ", t.constant->size(),
                " bytes fnv1a:", Hex32(Fnv1a32(t.constant->data(), t.constant->size())), "\n");
  }
  for (const Node& node : graph.nodes) text += PrintNode(graph, node, indent);
  for (TensorId out : graph.outputs) text += indent + "  output " + Ref(graph, out) + "\n";
  text += indent + "}\n";
}

}  // namespace

uint32_t Fnv1a32(const uint8_t* data, size_t size) {
  uint32_t hash = 2166136261u;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 16777619u;
  }
  return hash;
}

std::string PrintTensorType(const Tensor& tensor) {
  std::string text = Cat(DTypeName(tensor.dtype), ShapeToString(tensor.shape));
  const FixedPoint& fp = tensor.fixed_point;
  if (fp.empty()) return text;
  if (fp.axis < 0 && fp.fraction_bits.size() == 1) return Cat(text, "<f", fp.fraction_bits[0], ">");
  return Cat(text, "<f", JoinList(fp.fraction_bits, [](int32_t f) { return std::to_string(f); }),
             "@", fp.axis, ">");
}

std::string PrintGraph(const Graph& graph) {
  std::string text;
  AppendGraph(graph, "", text);
  return text;
}

}  // namespace opuc
