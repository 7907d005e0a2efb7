//===- src/opu/hw_config_json.cc - HwConfig as JSON -----------------------===//
//
// A file either lists every field, or names a preset as "base" and lists
// only what it changes; an "hdfg" given replaces the base's graph whole.
// Unknown members are errors (a typo must not silently keep a default).
// Messages name the field by its path: "array.input_channels".
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "json_value.h"
#include "opuc/opu/hw_config.h"
#include "support/format.h"

namespace opuc {
namespace {

using json::Value;

class Reader {
 public:
  explicit Reader(bool every_field) : every_field_(every_field) {}

  /// The member `key` of `obj`, or nullptr when absent and optional.
  Expected<const Value*> Member(const Value& obj, const std::string& path, const char* key,
                                Value::Type type) const {
    const Value* v = obj.Find(key);
    const std::string field = Join(path, key);
    if (!v) {
      if (every_field_) return InvalidArgument(Cat(field, " is missing"));
      return static_cast<const Value*>(nullptr);
    }
    if (v->type != type)
      return InvalidArgument(
          Cat(field, " is a ", json::TypeName(v->type), "; expected a ", json::TypeName(type)));
    return v;
  }

  Status Int(const Value& obj, const std::string& path, const char* key, int64_t& out) const {
    OPUC_ASSIGN_OR_RETURN(const Value* v, Member(obj, path, key, Value::Type::kNumber));
    if (!v) return OkStatus();
    if (v->number != std::floor(v->number) || std::fabs(v->number) > 9.0e15)
      return InvalidArgument(Cat(Join(path, key), " is ", v->number, "; expected an integer"));
    out = static_cast<int64_t>(v->number);
    return OkStatus();
  }

  Status Number(const Value& obj, const std::string& path, const char* key, double& out) const {
    OPUC_ASSIGN_OR_RETURN(const Value* v, Member(obj, path, key, Value::Type::kNumber));
    if (v) out = v->number;
    return OkStatus();
  }

  Status Bool(const Value& obj, const std::string& path, const char* key, bool& out) const {
    OPUC_ASSIGN_OR_RETURN(const Value* v, Member(obj, path, key, Value::Type::kBool));
    if (v) out = v->boolean;
    return OkStatus();
  }

  static std::string Join(const std::string& path, const char* key) {
    return path.empty() ? std::string(key) : path + "." + key;
  }

 private:
  bool every_field_;
};

Status KnownKeys(const Value& obj, const std::string& path, std::initializer_list<const char*> keys) {
  for (const auto& [name, value] : obj.members) {
    bool known = false;
    for (const char* k : keys) known = known || name == k;
    if (!known)
      return InvalidArgument(Cat(Reader::Join(path, name.c_str()), " is not a known field"));
  }
  return OkStatus();
}

Status ReadBuffer(const Reader& r, const Value& buffers, const char* key, BufferSpec& out) {
  OPUC_ASSIGN_OR_RETURN(const Value* b, r.Member(buffers, "buffers", key, Value::Type::kObject));
  if (!b) return OkStatus();
  const std::string path = Cat("buffers.", key);
  OPUC_RETURN_IF_ERROR(KnownKeys(*b, path, {"bytes_per_bank", "banks"}));
  OPUC_RETURN_IF_ERROR(r.Int(*b, path, "bytes_per_bank", out.bytes_per_bank));
  return r.Int(*b, path, "banks", out.banks);
}

Expected<HwModule> ModuleNamed(const Value& v, const std::string& field) {
  if (v.type != Value::Type::kString)
    return InvalidArgument(Cat(field, " is a ", json::TypeName(v.type), "; expected a module name"));
  if (auto m = HwModuleFromName(v.text)) return *m;
  return InvalidArgument(Cat(field, " is '", v.text, "'; expected one of mem_rd, adder, multiplier,",
                             " pad, ipa, comparator, pool, res_adder, upsample"));
}

Status ReadTaps(const Value& taps, HwModuleMask& out) {
  out = 0;
  for (size_t i = 0; i < taps.items.size(); ++i) {
    OPUC_ASSIGN_OR_RETURN(HwModule m, ModuleNamed(taps.items[i], Cat("store.taps[", i, "]")));
    out = static_cast<HwModuleMask>(out | ModuleBit(m));
  }
  return OkStatus();
}

Expected<Hdfg> ReadHdfg(const Value& h) {
  const Reader r(true);  // a graph is given whole
  OPUC_RETURN_IF_ERROR(KnownKeys(h, "hdfg", {"root", "stages", "edges"}));
  Hdfg g;
  OPUC_ASSIGN_OR_RETURN(const Value* stages, r.Member(h, "hdfg", "stages", Value::Type::kArray));
  for (size_t i = 0; i < stages->items.size(); ++i) {
    const Value& s = stages->items[i];
    const std::string path = Cat("hdfg.stages[", i, "]");
    if (s.type != Value::Type::kObject) return InvalidArgument(path + " is not an object");
    OPUC_RETURN_IF_ERROR(KnownKeys(s, path, {"name", "module"}));
    OPUC_ASSIGN_OR_RETURN(const Value* name, r.Member(s, path, "name", Value::Type::kString));
    OPUC_ASSIGN_OR_RETURN(const Value* module, r.Member(s, path, "module", Value::Type::kString));
    HdfgStage stage;
    stage.name = name->text;
    OPUC_ASSIGN_OR_RETURN(stage.module, ModuleNamed(*module, path + ".module"));
    g.stages.push_back(stage);
  }
  OPUC_ASSIGN_OR_RETURN(const Value* root, r.Member(h, "hdfg", "root", Value::Type::kString));
  g.root = g.Find(root->text);
  if (g.root < 0) return InvalidArgument(Cat("hdfg.root '", root->text, "' names no stage"));
  OPUC_ASSIGN_OR_RETURN(const Value* edges, r.Member(h, "hdfg", "edges", Value::Type::kArray));
  for (size_t i = 0; i < edges->items.size(); ++i) {
    const Value& e = edges->items[i];
    const std::string path = Cat("hdfg.edges[", i, "]");
    if (e.type != Value::Type::kArray || e.items.size() != 2 ||
        e.items[0].type != Value::Type::kString || e.items[1].type != Value::Type::kString)
      return InvalidArgument(path + " is not a pair of stage names [\"from\", \"to\"]");
    if (!g.Link(e.items[0].text, e.items[1].text))
      return InvalidArgument(Cat(path, " [\"", e.items[0].text, "\", \"", e.items[1].text,
                                 "\"] names a stage that does not exist"));
  }
  return g;
}

Status ReadSections(const Reader& r, const Value& doc, HwConfig& c) {
  OPUC_ASSIGN_OR_RETURN(const Value* name, r.Member(doc, "", "name", Value::Type::kString));
  if (name) c.name = name->text;
  OPUC_ASSIGN_OR_RETURN(const Value* array, r.Member(doc, "", "array", Value::Type::kObject));
  if (array) {
    OPUC_RETURN_IF_ERROR(KnownKeys(*array, "array", {"input_channels", "output_channels", "clock_mhz"}));
    OPUC_RETURN_IF_ERROR(r.Int(*array, "array", "input_channels", c.array.input_channels));
    OPUC_RETURN_IF_ERROR(r.Int(*array, "array", "output_channels", c.array.output_channels));
    OPUC_RETURN_IF_ERROR(r.Number(*array, "array", "clock_mhz", c.array.clock_mhz));
  }
  OPUC_ASSIGN_OR_RETURN(const Value* ipa, r.Member(doc, "", "ipa", Value::Type::kObject));
  if (ipa) {
    OPUC_RETURN_IF_ERROR(KnownKeys(*ipa, "ipa", {"depthwise", "transpose_conv", "max_kernel",
                                                 "max_stride", "max_dilation"}));
    OPUC_RETURN_IF_ERROR(r.Bool(*ipa, "ipa", "depthwise", c.ipa.depthwise));
    OPUC_RETURN_IF_ERROR(r.Bool(*ipa, "ipa", "transpose_conv", c.ipa.transpose_conv));
    OPUC_RETURN_IF_ERROR(r.Int(*ipa, "ipa", "max_kernel", c.ipa.max_kernel));
    OPUC_RETURN_IF_ERROR(r.Int(*ipa, "ipa", "max_stride", c.ipa.max_stride));
    OPUC_RETURN_IF_ERROR(r.Int(*ipa, "ipa", "max_dilation", c.ipa.max_dilation));
  }
  OPUC_ASSIGN_OR_RETURN(const Value* compare, r.Member(doc, "", "compare", Value::Type::kObject));
  if (compare) {
    OPUC_RETURN_IF_ERROR(KnownKeys(*compare, "compare", {"lookup_table"}));
    OPUC_RETURN_IF_ERROR(r.Bool(*compare, "compare", "lookup_table", c.compare.lookup_table));
  }
  OPUC_ASSIGN_OR_RETURN(const Value* buffers, r.Member(doc, "", "buffers", Value::Type::kObject));
  if (buffers) {
    OPUC_RETURN_IF_ERROR(KnownKeys(*buffers, "buffers", {"feature_map", "weight", "bias", "partial_sum"}));
    OPUC_RETURN_IF_ERROR(ReadBuffer(r, *buffers, "feature_map", c.buffers.feature_map));
    OPUC_RETURN_IF_ERROR(ReadBuffer(r, *buffers, "weight", c.buffers.weight));
    OPUC_RETURN_IF_ERROR(ReadBuffer(r, *buffers, "bias", c.buffers.bias));
    OPUC_RETURN_IF_ERROR(ReadBuffer(r, *buffers, "partial_sum", c.buffers.partial_sum));
  }
  OPUC_ASSIGN_OR_RETURN(const Value* dram, r.Member(doc, "", "dram", Value::Type::kObject));
  if (dram) {
    OPUC_RETURN_IF_ERROR(KnownKeys(*dram, "dram", {"word_bits", "bandwidth_gb_per_s", "latency_cycles"}));
    OPUC_RETURN_IF_ERROR(r.Int(*dram, "dram", "word_bits", c.dram.word_bits));
    OPUC_RETURN_IF_ERROR(r.Number(*dram, "dram", "bandwidth_gb_per_s", c.dram.bandwidth_gb_per_s));
    OPUC_RETURN_IF_ERROR(r.Int(*dram, "dram", "latency_cycles", c.dram.latency_cycles));
  }
  OPUC_ASSIGN_OR_RETURN(const Value* store, r.Member(doc, "", "store", Value::Type::kObject));
  if (store) {
    OPUC_RETURN_IF_ERROR(KnownKeys(*store, "store", {"max_outputs", "taps"}));
    OPUC_RETURN_IF_ERROR(r.Int(*store, "store", "max_outputs", c.store.max_outputs));
    OPUC_ASSIGN_OR_RETURN(const Value* taps, r.Member(*store, "store", "taps", Value::Type::kArray));
    if (taps) OPUC_RETURN_IF_ERROR(ReadTaps(*taps, c.store.taps));
  }
  OPUC_ASSIGN_OR_RETURN(const Value* hdfg, r.Member(doc, "", "hdfg", Value::Type::kObject));
  if (hdfg) {
    OPUC_ASSIGN_OR_RETURN(c.hdfg, ReadHdfg(*hdfg));
  }
  return OkStatus();
}

Expected<HwConfig> ParseDocument(std::string_view text) {
  OPUC_ASSIGN_OR_RETURN(const Value doc, json::Parse(text));
  if (doc.type != Value::Type::kObject)
    return InvalidArgument(Cat("the config is a JSON ", json::TypeName(doc.type), "; expected an object"));
  OPUC_RETURN_IF_ERROR(KnownKeys(doc, "", {"base", "name", "array", "ipa", "compare", "buffers",
                                           "dram", "store", "hdfg"}));
  HwConfig config;
  const Value* base = doc.Find("base");
  if (base) {
    if (base->type != Value::Type::kString) return InvalidArgument("base is not a preset name");
    OPUC_ASSIGN_OR_RETURN(config, HwConfigPreset(base->text));
  }
  OPUC_RETURN_IF_ERROR(ReadSections(Reader(base == nullptr), doc, config));
  OPUC_RETURN_IF_ERROR(ValidateHwConfig(config));
  return config;
}

void Buffer(std::ostringstream& o, const char* key, const BufferSpec& b, bool last) {
  o << "    \"" << key << "\": {\"bytes_per_bank\": " << b.bytes_per_bank
    << ", \"banks\": " << b.banks << "}" << (last ? "\n" : ",\n");
}

}  // namespace

Expected<HwConfig> ParseHwConfigJson(std::string_view text, std::string_view where) {
  Expected<HwConfig> config = ParseDocument(text);
  if (!config.ok() && !where.empty()) return config.status().WithContext(where);
  return config;
}

Expected<HwConfig> LoadHwConfig(const std::string& name_or_path) {
  for (const std::string& preset : HwConfigPresetNames())
    if (preset == name_or_path) return HwConfigPreset(name_or_path);
  std::ifstream file(name_or_path, std::ios::binary);
  if (!file)
    return NotFound(Cat("'", name_or_path, "' is neither a hardware preset (opu1024, tiny) nor a",
                        " readable file"));
  std::ostringstream text;
  text << file.rdbuf();
  return ParseHwConfigJson(text.str(), name_or_path);
}

std::string HwConfigToJson(const HwConfig& c) {
  std::ostringstream o;
  auto b = [](bool v) { return v ? "true" : "false"; };
  o << "{\n  \"name\": " << Quote(c.name) << ",\n";
  o << "  \"array\": {\"input_channels\": " << c.array.input_channels
    << ", \"output_channels\": " << c.array.output_channels
    << ", \"clock_mhz\": " << FormatDouble(c.array.clock_mhz) << "},\n";
  o << "  \"ipa\": {\"depthwise\": " << b(c.ipa.depthwise) << ", \"transpose_conv\": "
    << b(c.ipa.transpose_conv) << ", \"max_kernel\": " << c.ipa.max_kernel
    << ", \"max_stride\": " << c.ipa.max_stride << ", \"max_dilation\": " << c.ipa.max_dilation
    << "},\n";
  o << "  \"compare\": {\"lookup_table\": " << b(c.compare.lookup_table) << "},\n";
  o << "  \"buffers\": {\n";
  Buffer(o, "feature_map", c.buffers.feature_map, false);
  Buffer(o, "weight", c.buffers.weight, false);
  Buffer(o, "bias", c.buffers.bias, false);
  Buffer(o, "partial_sum", c.buffers.partial_sum, true);
  o << "  },\n";
  o << "  \"dram\": {\"word_bits\": " << c.dram.word_bits << ", \"bandwidth_gb_per_s\": "
    << FormatDouble(c.dram.bandwidth_gb_per_s) << ", \"latency_cycles\": " << c.dram.latency_cycles
    << "},\n";
  o << "  \"store\": {\"max_outputs\": " << c.store.max_outputs << ", \"taps\": [";
  bool first = true;
  for (int m = 0; m < kNumHwModules; ++m) {
    if (!(c.store.taps & ModuleBit(static_cast<HwModule>(m)))) continue;
    o << (first ? "" : ", ") << Quote(HwModuleName(static_cast<HwModule>(m)));
    first = false;
  }
  o << "]},\n  \"hdfg\": {\n    \"root\": "
    << Quote(c.hdfg.root >= 0 && static_cast<size_t>(c.hdfg.root) < c.hdfg.stages.size()
                 ? c.hdfg.stages[static_cast<size_t>(c.hdfg.root)].name
                 : std::string())
    << ",\n    \"stages\": [\n";
  for (size_t i = 0; i < c.hdfg.stages.size(); ++i)
    o << "      {\"name\": " << Quote(c.hdfg.stages[i].name)
      << ", \"module\": " << Quote(HwModuleName(c.hdfg.stages[i].module)) << "}"
      << (i + 1 < c.hdfg.stages.size() ? ",\n" : "\n");
  o << "    ],\n    \"edges\": [";
  first = true;
  for (const HdfgStage& s : c.hdfg.stages)
    for (int32_t t : s.successors) {
      const bool valid = t >= 0 && static_cast<size_t>(t) < c.hdfg.stages.size();
      o << (first ? "\n      " : ",\n      ") << "[" << Quote(s.name) << ", "
        << Quote(valid ? c.hdfg.stages[static_cast<size_t>(t)].name : std::string()) << "]";
      first = false;
    }
  o << "\n    ]\n  }\n}\n";
  return o.str();
}

}  // namespace opuc
