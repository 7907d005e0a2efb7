//===- src/opu/hw_config_json.cc - HwConfig as JSON -----------------------===//
//
// A file either lists every field, or names a preset as "base" and lists
// only what it changes; an "hdfg" given replaces the base's graph whole.
// Unknown members are errors (a typo must not silently keep a default).
// Messages name the field by its path: "array.input_channels". The numbers
// and flags come from the field table (hw_config_fields.h); nlohmann-json
// parses (locale-free, UTF-8 checked) and writes.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "hw_config_fields.h"
#include "opuc/opu/hw_config.h"
#include "support/format.h"
#include "support/json_parse.h"
#include "support/output_file.h"

namespace opuc {
namespace {

using Json = nlohmann::ordered_json;

// Deeper documents are refused before they are built: a config is 4 deep.
constexpr int kMaxDepth = 32;

// The members that are not in the field table, by path.
constexpr const char* kOtherMembers[] = {"base", "name", "store.taps", "hdfg"};

/// The value's kind with its article: "a number", "an array", "null".
std::string TypeName(const Json& v) {
  if (v.is_boolean()) return "a bool";
  if (v.is_number()) return "a number";
  if (v.is_null()) return "null";
  return v.is_array() || v.is_object() ? std::string("an ") + v.type_name()
                                       : std::string("a ") + v.type_name();
}

std::string Join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

bool IsKnown(const std::string& path) {
  for (const char* other : kOtherMembers)
    if (path == other) return true;
  for (const HwField& field : HwConfigFields())
    if (path == field.path) return true;
  return false;
}

bool IsSection(const std::string& path) {
  const std::string prefix = path + ".";
  for (const HwField& field : HwConfigFields())
    if (std::string(field.path).compare(0, prefix.size(), prefix) == 0) return true;
  return false;
}

// Every member of `obj` is a field, or a section of fields (checked whole).
Status CheckMembers(const Json& obj, const std::string& path) {
  for (const auto& [key, value] : obj.items()) {
    const std::string member = Join(path, key);
    if (IsKnown(member)) continue;
    if (!IsSection(member)) return InvalidArgument(Cat(member, " is not a known field"));
    if (!value.is_object())
      return InvalidArgument(Cat(member, " is ", TypeName(value), "; expected an object"));
    OPUC_RETURN_IF_ERROR(CheckMembers(value, member));
  }
  return OkStatus();
}

// The value at a dotted path, or nullptr; "<section> is missing" when a file
// without a base leaves it out.
Expected<const Json*> Find(const Json& doc, const std::string& path, bool required) {
  const Json* at = &doc;
  size_t begin = 0;
  while (true) {
    const size_t dot = path.find('.', begin);
    const std::string key = path.substr(begin, dot - begin);
    auto it = at->find(key);
    if (it == at->end()) {
      if (!required) return static_cast<const Json*>(nullptr);
      return InvalidArgument(Cat(path.substr(0, dot), " is missing"));
    }
    at = &*it;
    if (dot == std::string::npos) return at;
    begin = dot + 1;
  }
}

Expected<int64_t> Integer(const Json& v, const char* path) {
  if (v.is_number_integer() && !(v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX))
    return v.get<int64_t>();
  const double d = v.get<double>();
  if (d == std::floor(d) && std::fabs(d) <= 9.0e15) return static_cast<int64_t>(d);
  return InvalidArgument(Cat(path, " is ", FormatDouble(d), "; expected an integer"));
}

Status ReadField(const HwField& field, const Json& v, HwConfig& c) {
  const HwFieldRef ref = field.ref(c);
  const bool want_bool = std::holds_alternative<bool*>(ref);
  if (want_bool ? !v.is_boolean() : !v.is_number())
    return InvalidArgument(
        Cat(field.path, " is ", TypeName(v), "; expected ", want_bool ? "a bool" : "a number"));
  if (auto* b = std::get_if<bool*>(&ref)) **b = v.get<bool>();
  if (auto* d = std::get_if<double*>(&ref)) **d = v.get<double>();
  if (auto* i = std::get_if<int64_t*>(&ref)) {
    OPUC_ASSIGN_OR_RETURN(**i, Integer(v, field.path));
  }
  return OkStatus();
}

Expected<HwModule> ModuleNamed(const Json& v, const std::string& field) {
  if (!v.is_string())
    return InvalidArgument(Cat(field, " is ", TypeName(v), "; expected a module name"));
  if (auto m = HwModuleFromName(v.get<std::string>())) return *m;
  return InvalidArgument(
      Cat(field, " is '", v.get<std::string>(), "'; expected one of mem_rd,",
          " adder, multiplier, pad, ipa, comparator, pool, res_adder, upsample"));
}

Status ReadTaps(const Json& taps, HwModuleMask& out) {
  if (!taps.is_array())
    return InvalidArgument(Cat("store.taps is ", TypeName(taps), "; expected an array"));
  out = 0;
  for (size_t i = 0; i < taps.size(); ++i) {
    OPUC_ASSIGN_OR_RETURN(HwModule m, ModuleNamed(taps[i], Cat("store.taps[", i, "]")));
    out = static_cast<HwModuleMask>(out | ModuleBit(m));
  }
  return OkStatus();
}

Expected<const Json*> Typed(const Json& obj, const std::string& path, const char* key,
                            Json::value_t type, const char* type_name) {
  const auto it = obj.find(key);
  if (it == obj.end()) return InvalidArgument(Cat(Join(path, key), " is missing"));
  const Json* v = &*it;
  if (v->type() != type)
    return InvalidArgument(Cat(Join(path, key), " is ", TypeName(*v), "; expected ", type_name));
  return v;
}

Expected<Hdfg> ReadHdfg(const Json& h) {
  if (!h.is_object()) return InvalidArgument(Cat("hdfg is ", TypeName(h), "; expected an object"));
  for (const auto& [key, value] : h.items())
    if (key != "root" && key != "stages" && key != "edges")
      return InvalidArgument(Cat("hdfg.", key, " is not a known field"));
  Hdfg g;
  OPUC_ASSIGN_OR_RETURN(const Json* stages,
                        Typed(h, "hdfg", "stages", Json::value_t::array, "an array"));
  for (size_t i = 0; i < stages->size(); ++i) {
    const Json& s = (*stages)[i];
    const std::string path = Cat("hdfg.stages[", i, "]");
    if (!s.is_object()) return InvalidArgument(path + " is not an object");
    for (const auto& [key, value] : s.items())
      if (key != "name" && key != "module")
        return InvalidArgument(Cat(path, ".", key, " is not a known field"));
    OPUC_ASSIGN_OR_RETURN(const Json* name,
                          Typed(s, path, "name", Json::value_t::string, "a string"));
    auto module = s.find("module");
    if (module == s.end()) return InvalidArgument(path + ".module is missing");
    HdfgStage stage;
    stage.name = name->get<std::string>();
    OPUC_ASSIGN_OR_RETURN(stage.module, ModuleNamed(*module, path + ".module"));
    g.stages.push_back(stage);
  }
  OPUC_ASSIGN_OR_RETURN(const Json* root,
                        Typed(h, "hdfg", "root", Json::value_t::string, "a string"));
  const std::string root_name = root->get<std::string>();
  g.root = g.Find(root_name);
  if (g.root < 0) return InvalidArgument(Cat("hdfg.root '", root_name, "' names no stage"));
  OPUC_ASSIGN_OR_RETURN(const Json* edges,
                        Typed(h, "hdfg", "edges", Json::value_t::array, "an array"));
  for (size_t i = 0; i < edges->size(); ++i) {
    const Json& e = (*edges)[i];
    const std::string path = Cat("hdfg.edges[", i, "]");
    if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_string())
      return InvalidArgument(path + " is not a pair of stage names [\"from\", \"to\"]");
    const auto from = e[0].get<std::string>(), to = e[1].get<std::string>();
    if (!g.Link(from, to))
      return InvalidArgument(
          Cat(path, " [", Quote(from), ", ", Quote(to), "] names a stage that does not exist"));
  }
  return g;
}

Status ReadDocument(const Json& doc, bool every_field, HwConfig& c) {
  OPUC_ASSIGN_OR_RETURN(const Json* name, Find(doc, "name", every_field));
  if (name) {
    if (!name->is_string())
      return InvalidArgument(Cat("name is ", TypeName(*name), "; expected a string"));
    c.name = name->get<std::string>();
  }
  for (const HwField& field : HwConfigFields()) {
    OPUC_ASSIGN_OR_RETURN(const Json* v, Find(doc, field.path, every_field && !field.added_later));
    if (v) OPUC_RETURN_IF_ERROR(ReadField(field, *v, c));
  }
  OPUC_ASSIGN_OR_RETURN(const Json* taps, Find(doc, "store.taps", every_field));
  if (taps) OPUC_RETURN_IF_ERROR(ReadTaps(*taps, c.store.taps));
  OPUC_ASSIGN_OR_RETURN(const Json* hdfg, Find(doc, "hdfg", every_field));
  if (hdfg) {
    OPUC_ASSIGN_OR_RETURN(c.hdfg, ReadHdfg(*hdfg));
  }
  return OkStatus();
}

Expected<HwConfig> ParseDocument(std::string_view text) {
  OPUC_ASSIGN_OR_RETURN(const Json doc, ParseJsonText(text, kMaxDepth));
  if (!doc.is_object())
    return InvalidArgument(Cat("the config is ", TypeName(doc), "; expected an object"));
  OPUC_RETURN_IF_ERROR(CheckMembers(doc, ""));
  HwConfig config;
  auto base = doc.find("base");
  if (base != doc.end()) {
    if (!base->is_string()) return InvalidArgument("base is not a preset name");
    OPUC_ASSIGN_OR_RETURN(config, HwConfigPreset(base->get<std::string>()));
  }
  OPUC_RETURN_IF_ERROR(ReadDocument(doc, base == doc.end(), config));
  OPUC_RETURN_IF_ERROR(ValidateHwConfig(config));
  return config;
}

Json HdfgToJson(const Hdfg& g) {
  const auto stage_name = [&g](int32_t s) {
    return s >= 0 && static_cast<size_t>(s) < g.stages.size()
               ? g.stages[static_cast<size_t>(s)].name
               : std::string();
  };
  Json stages = Json::array(), edges = Json::array();
  for (const HdfgStage& s : g.stages) {
    stages.push_back({{"name", s.name}, {"module", HwModuleName(s.module)}});
    for (int32_t t : s.successors) edges.push_back({s.name, stage_name(t)});
  }
  return {{"root", stage_name(g.root)}, {"stages", stages}, {"edges", edges}};
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
  std::error_code ec;
  const auto status = std::filesystem::status(name_or_path, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    // A folder or a named pipe: refused before open(), which blocks on a pipe.
    return InvalidArgument(Cat("'", name_or_path, "' is not a regular file (a hardware config",
                               " is a JSON file, or a preset: opu1024, tiny)"));
  std::ifstream file(name_or_path, std::ios::binary);
  if (!file)
    return NotFound(Cat("'", name_or_path, "' is neither a hardware preset (opu1024, tiny) nor a",
                        " readable file"));
  NoteInputFile(name_or_path);
  std::ostringstream text;
  text << file.rdbuf();
  return ParseHwConfigJson(text.str(), name_or_path);
}

std::string HwConfigToJson(const HwConfig& c) {
  Json doc = {{"name", c.name}};
  // The table hands out mutable references; this only reads through them.
  HwConfig& config = const_cast<HwConfig&>(c);
  for (const HwField& field : HwConfigFields()) {
    Json* at = &doc;
    const std::string path = field.path;
    for (size_t begin = 0, dot; (dot = path.find('.', begin)) != std::string::npos; begin = dot + 1)
      at = &(*at)[path.substr(begin, dot - begin)];
    std::visit([&](auto* value) { (*at)[path.substr(path.rfind('.') + 1)] = *value; },
               field.ref(config));
  }
  Json taps = Json::array();
  for (int m = 0; m < kNumHwModules; ++m)
    if (c.store.taps & ModuleBit(static_cast<HwModule>(m)))
      taps.push_back(HwModuleName(static_cast<HwModule>(m)));
  doc["store"]["taps"] = taps;
  doc["hdfg"] = HdfgToJson(c.hdfg);
  // A name that is not UTF-8 is written with U+FFFD rather than refused.
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace opuc
