//===- src/opug/opug_json.cc - The JSON form of .opug -----------------===//
//
// Reading goes through FlatBuffers' own parser (JSON → binary → ReadOpug), so
// the JSON form gets exactly the checks of the binary one. Writing is our own
// small printer rather than flatbuffers::GenerateText, which prints doubles
// with 12 fixed decimals (losing bits, and printing 1e-13 as 0) and puts every
// byte of constant data on a line of its own.
//
// FlatBuffers' parser lives in its library (libflatbuffers.a), which cross
// builds go without (OPUC_WITH_FLATBUFFERS_PARSER, docs/decisions.md); there
// ReadOpugJson says so and everything else here works.
//
//===----------------------------------------------------------------------===//
#include "opuc/opug/opug.h"

#include <cctype>

#ifdef OPUC_WITH_FLATBUFFERS_PARSER
#include <flatbuffers/idl.h>
#endif

#include "opuc/file_io/aligned_bytes.h"
#include "opug_attrs.h"
#include "opug_generated.h"
#include "opug_writable.h"
#include "support/format.h"

// The text of schema/opug.fbs, embedded at build time.
extern const char kOpugSchemaText[];

namespace opuc {
namespace {

/// A JSON string: names may be any bytes, a JSON file holds UTF-8 (each
/// other byte becomes U+FFFD; the binary .opug keeps them as they are).
std::string JsonString(std::string_view text) { return Quote(ValidUtf8(text)); }

namespace fb = ::opuc::opug;

std::string Ints(const std::vector<int64_t>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += Cat(i ? ", " : "", values[i]);
  return text + "]";
}

template <typename T>
std::vector<int64_t> Widen(const std::vector<T>& values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

std::string AttrJson(const std::string& name, const AttrValue& value) {
  std::string body;
  switch (TypeOf(value)) {
    case AttrType::kInt: body = Cat("\"value\": ", std::get<int64_t>(value)); break;
    case AttrType::kFloat: body = "\"value\": " + FormatDouble(std::get<double>(value)); break;
    case AttrType::kBool:
      body = std::get<bool>(value) ? "\"value\": true" : "\"value\": false";
      break;
    case AttrType::kString: body = "\"value\": " + JsonString(std::get<std::string>(value)); break;
    case AttrType::kInts:
      body = "\"values\": " + Ints(std::get<std::vector<int64_t>>(value));
      break;
    case AttrType::kFloats:
      body = "\"values\": " + JoinList(std::get<std::vector<double>>(value), FormatDouble);
      break;
  }
  return Cat("{ \"name\": ", JsonString(name), ", \"value_type\": \"",
             AttrValueTypeName(TypeOf(value)), "\", \"value\": { ", body, " } }");
}

std::string TensorJson(const Tensor& t, uint32_t buffer) {
  std::string text =
      Cat("{ \"name\": ", JsonString(t.name), ", \"dtype\": \"",
          fb::EnumNameDType(static_cast<fb::DType>(t.dtype)), "\", \"shape\": ", Ints(t.shape));
  if (buffer != 0) text += Cat(", \"buffer\": ", buffer);
  if (!t.fixed_point.empty())
    text +=
        Cat(", \"fixed_point\": { \"fraction_bits\": ", Ints(Widen(t.fixed_point.fraction_bits)),
            ", \"axis\": ", t.fixed_point.axis, " }");
  return text + " }";
}

/// Constant bytes, 16 to a line so that a tensor's layout stays readable.
std::string BufferJson(const ConstantData& data) {
  if (data.size() == 0) return "{}";
  const bool one_line = data.size() <= 16;
  std::string text = "{ \"data\": [";
  for (size_t i = 0; i < data.size(); ++i) {
    if (i) text += ',';
    if (i % 16 == 0 && !one_line)
      text += "\n      ";
    else if (i)
      text += ' ';
    text += std::to_string(data.data()[i]);
  }
  return text + (one_line ? "] }" : "\n    ] }");
}

std::string GraphJson(const Graph& graph);

/// `text` with every line after the first indented by `indent` more spaces
/// (no string the printer writes holds a raw newline: Quote escapes them).
std::string Indent(const std::string& text, size_t indent) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(indent, ' ');
  }
  return out;
}

std::string NodeJson(const Node& node) {
  std::string text = Cat("{\n      \"op\": ", JsonString(OpName(node.op)));
  if (!node.name.empty()) text += Cat(",\n      \"name\": ", JsonString(node.name));
  text += Cat(",\n      \"inputs\": ", Ints(Widen(node.inputs)),
              ",\n      \"outputs\": ", Ints(Widen(node.outputs)), ",\n      \"attrs\": [");
  const auto& attrs = node.attrs.entries();
  for (size_t i = 0; i < attrs.size(); ++i)
    text += Cat(i ? "," : "", "\n        ", AttrJson(attrs[i].first, attrs[i].second));
  text += attrs.empty() ? "]" : "\n      ]";
  if (node.body) {
    std::string body = GraphJson(*node.body);
    body.pop_back();  // its final newline
    text += ",\n      \"body\": " + Indent(body, 6);
  }
  return text + "\n    }";
}

/// `"key": [` items `]` with one item per line.
std::string List(std::string_view key, const std::vector<std::string>& items) {
  std::string text = Cat("  \"", key, "\": [");
  for (size_t i = 0; i < items.size(); ++i) text += Cat(i ? "," : "", "\n    ", items[i]);
  return text + (items.empty() ? "]" : "\n  ]");
}

std::string GraphJson(const Graph& graph) {
  std::vector<std::string> tensors, buffers = {"{}"}, nodes, metadata;
  for (const Tensor& t : graph.tensors) {
    const uint32_t buffer = t.constant ? static_cast<uint32_t>(buffers.size()) : 0;
    if (t.constant) buffers.push_back(BufferJson(*t.constant));
    tensors.push_back(TensorJson(t, buffer));
  }
  for (const Node& node : graph.nodes) nodes.push_back(NodeJson(node));
  for (const auto& [key, value] : graph.metadata)
    metadata.push_back(
        Cat("{ \"key\": ", JsonString(key), ", \"value\": ", JsonString(value), " }"));
  std::string json = Cat("{\n  \"version\": ", kOpugVersion, ",\n");
  if (!graph.name.empty()) json += Cat("  \"name\": ", JsonString(graph.name), ",\n");
  json += List("tensors", tensors) + ",\n" + List("buffers", buffers) + ",\n" +
          List("nodes", nodes) + ",\n";
  json += Cat("  \"inputs\": ", Ints(Widen(graph.inputs)),
              ",\n  \"outputs\": ", Ints(Widen(graph.outputs)), ",\n", List("metadata", metadata),
              "\n}\n");
  return json;
}

}  // namespace

Expected<std::string> OpugToJson(const Graph& graph) {
  OPUC_RETURN_IF_ERROR(CheckOpugWritable(graph));
  return GraphJson(graph);
}

bool OpugJsonReaderAvailable() {
#ifdef OPUC_WITH_FLATBUFFERS_PARSER
  return true;
#else
  return false;
#endif
}

#ifdef OPUC_WITH_FLATBUFFERS_PARSER

namespace {

/// The first character after blanks and comments, or '\0'.
char FirstToken(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      const size_t end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end;
    } else if (text.substr(i, 2) == "/*") {
      const size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 2;
    } else {
      return text[i];
    }
  }
  return '\0';
}

/// FlatBuffers says "3: 14: error: unknown field: x"; we say
/// "line 3, column 14: unknown field: x".
std::string ParserError(std::string error) {
  while (!error.empty() && std::isspace(static_cast<unsigned char>(error.back()))) error.pop_back();
  const auto Digits = [&](size_t from) {
    size_t i = from;
    while (i < error.size() && std::isdigit(static_cast<unsigned char>(error[i]))) ++i;
    return i;
  };
  const size_t line_end = Digits(0);
  if (line_end == 0 || error.compare(line_end, 2, ": ") != 0) return error;
  const size_t column_end = Digits(line_end + 2);
  constexpr std::string_view kError = ": error: ";
  if (column_end == line_end + 2 || error.compare(column_end, kError.size(), kError) != 0)
    return error;
  return Cat("line ", error.substr(0, line_end), ", column ",
             error.substr(line_end + 2, column_end - line_end - 2), ": ",
             error.substr(column_end + kError.size()));
}

}  // namespace

Expected<Graph> ReadOpugJson(std::string_view text, std::string_view source_name) {
  // Only a JSON object: the parser would also take schema statements, and an
  // `include` would make it read other files.
  if (FirstToken(text) != '{')
    return InvalidArgument(Cat(source_name, ": expected a JSON object starting with '{'"));
  // The parser reads a NUL-terminated string, which must not end early.
  const std::string source(text);
  if (const size_t nul = source.find('\0'); nul != std::string::npos)
    return InvalidArgument(Cat(source_name, ": byte ", nul, " is NUL; expected JSON text"));

  flatbuffers::IDLOptions options;
  options.allow_non_utf8 = true;  // names are plain bytes in the binary form too
  flatbuffers::Parser parser(options);
  if (!parser.Parse(kOpugSchemaText))
    return InternalError(Cat("the built-in opug.fbs does not parse: ", parser.error_));
  if (!parser.Parse(source.c_str()))
    return InvalidArgument(Cat(source_name, ": ", ParserError(parser.error_)));
  Expected<AlignedBytes> bytes =
      CopyAligned(parser.builder_.GetBufferPointer(), parser.builder_.GetSize());
  if (!bytes.ok()) return bytes.status().WithContext(source_name);
  return ReadOpug(bytes->owner, bytes->data(), bytes->size, source_name);
}

#else  // !OPUC_WITH_FLATBUFFERS_PARSER

Expected<Graph> ReadOpugJson(std::string_view /*text*/, std::string_view source_name) {
  return Unsupported(Cat(source_name,
                         ": cannot read the JSON form: this opuc was built without "
                         "FlatBuffers' parser (OPUC_WITH_FLATBUFFERS_PARSER=OFF); "
                         "use the binary .opug"));
}

#endif  // OPUC_WITH_FLATBUFFERS_PARSER

}  // namespace opuc
