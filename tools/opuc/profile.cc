//===- tools/opuc/profile.cc - What a run counted, kept for the report ----===//
#include "opuc/profile.h"

#include <nlohmann/json.hpp>

#include "opuc/file_io/file_io.h"
#include "opuc/output.h"
#include "support/format.h"
#include "support/json_parse.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kProfileVersion = 1;
constexpr size_t kMaxProfileBytes = size_t{64} << 20;  // a step is ~300 bytes
constexpr int kMaxDepth = 16;                          // a profile nests 4 deep

constexpr const char* kEngineKeys[] = {"load", "compute", "store"};
static_assert(std::size(kEngineKeys) == isa::kNumEngines);

Json StepJson(size_t index, const ProgramStep& step, const OpuCounters& c) {
  Json instructions = Json::object();
  for (size_t e = 0; e < isa::kNumEngines; ++e) instructions[kEngineKeys[e]] = c.instructions[e];
  Json json = {{"step", index},
               {"group", step.group},
               {"cycles", c.cycles},
               {"bytes_loaded", c.bytes_loaded},
               {"bytes_stored", c.bytes_stored},
               {"gemm_issues", c.gemm_issues},
               {"post_entries", c.post_entries},
               {"instructions", instructions}};
  if (!c.group_cycles.empty()) json["group_cycles"] = c.group_cycles;  // a run's groups, in order
  return json;
}

/// The non-negative integer at `key` of `object`; errors name `where.key`.
Expected<int64_t> Count(const Json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) return InvalidArgument(Cat(where, ".", key, " is missing"));
  if (!it->is_number_integer() || it->get<int64_t>() < 0)
    return InvalidArgument(Cat(where, ".", key, " is not a count (a non-negative integer)"));
  return it->get<int64_t>();
}

Expected<std::string> Text(const Json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string())
    return InvalidArgument(Cat(where, ".", key, " is missing or not a string"));
  return it->get<std::string>();
}

Expected<Json> Parse(const AlignedBytes& bytes) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size);
  OPUC_ASSIGN_OR_RETURN(Json doc, ParseJsonText(text, kMaxDepth));
  if (!doc.is_object()) return InvalidArgument("not a JSON object");
  return doc;
}

Expected<Profile> ReadDocument(const Json& doc, const Program& program) {
  auto format = doc.find("format");
  if (format == doc.end() || *format != "opuc-profile")
    return InvalidArgument("not an opuc profile (no \"format\": \"opuc-profile\")");
  OPUC_ASSIGN_OR_RETURN(int64_t version, Count(doc, "version", "profile"));
  if (version != kProfileVersion)
    return InvalidArgument(
        Cat("profile version ", version, "; this opuc reads version ", kProfileVersion));
  Profile profile;
  OPUC_ASSIGN_OR_RETURN(profile.device, Text(doc, "device", "profile"));
  auto of = doc.find("program");
  if (of == doc.end() || !of->is_object())
    return InvalidArgument("profile.program is missing or not an object");
  OPUC_ASSIGN_OR_RETURN(std::string sha, Text(*of, "source_sha256", "program"));
  OPUC_ASSIGN_OR_RETURN(int64_t step_count, Count(*of, "steps", "program"));
  const std::vector<ProgramStep>& steps = program.steps();
  if (sha != program.build().source_sha256 || step_count != static_cast<int64_t>(steps.size()))
    return InvalidArgument(Cat("recorded for another program (", step_count,
                               " steps, model SHA-256 ", sha.substr(0, 12), "...; this one has ",
                               steps.size(), " steps, ",
                               program.build().source_sha256.substr(0, 12), "...)"));
  auto list = doc.find("steps");
  if (list == doc.end() || !list->is_array())
    return InvalidArgument("profile.steps is missing or not an array");
  profile.counters.assign(steps.size(), OpuCounters{});
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& entry = (*list)[i];
    const std::string where = Cat("steps[", i, "]");
    if (!entry.is_object()) return InvalidArgument(Cat(where, " is not an object"));
    OPUC_ASSIGN_OR_RETURN(int64_t index, Count(entry, "step", where));
    if (index >= step_count || steps[static_cast<size_t>(index)].kind != StepKind::kOpu)
      return InvalidArgument(Cat(where, ".step is ", index, ", not an OPU step of the program"));
    OpuCounters& c = profile.counters[static_cast<size_t>(index)];
    OPUC_ASSIGN_OR_RETURN(c.cycles, Count(entry, "cycles", where));
    OPUC_ASSIGN_OR_RETURN(c.bytes_loaded, Count(entry, "bytes_loaded", where));
    OPUC_ASSIGN_OR_RETURN(c.bytes_stored, Count(entry, "bytes_stored", where));
    OPUC_ASSIGN_OR_RETURN(c.gemm_issues, Count(entry, "gemm_issues", where));
    OPUC_ASSIGN_OR_RETURN(c.post_entries, Count(entry, "post_entries", where));
    auto instructions = entry.find("instructions");
    if (instructions == entry.end() || !instructions->is_object())
      return InvalidArgument(Cat(where, ".instructions is missing or not an object"));
    for (size_t e = 0; e < isa::kNumEngines; ++e) {
      OPUC_ASSIGN_OR_RETURN(c.instructions[e],
                            Count(*instructions, kEngineKeys[e], where + ".instructions"));
    }
    // A run's groups' cycles: one a group of the step, adding up to its cycles.
    if (auto groups = entry.find("group_cycles"); groups != entry.end()) {
      const size_t expected = steps[static_cast<size_t>(index)].groups.size();
      if (!groups->is_array() || groups->size() != expected)
        return InvalidArgument(Cat(where, ".group_cycles is not an array of ", expected,
                                   " counts (the step's groups)"));
      int64_t sum = 0;
      for (size_t k = 0; k < groups->size(); ++k) {
        const Json& v = (*groups)[k];
        if (!v.is_number_integer() || v.get<int64_t>() < 0)
          return InvalidArgument(Cat(where, ".group_cycles[", k, "] is not a count"));
        c.group_cycles.push_back(v.get<int64_t>());
        sum += c.group_cycles.back();
      }
      if (sum != c.cycles)
        return InvalidArgument(
            Cat(where, ".group_cycles add up to ", sum, ", not the step's ", c.cycles, " cycles"));
    }
  }
  return profile;
}

}  // namespace

Status WriteProfile(const std::string& path, const Program& program, const std::string& device,
                    const std::vector<OpuCounters>& counters) {
  const std::vector<ProgramStep>& steps = program.steps();
  if (counters.size() != steps.size())
    return InternalError(
        Cat(path, ": ", counters.size(), " counters for ", steps.size(), " steps"));
  Json list = Json::array();
  for (size_t s = 0; s < steps.size(); ++s)
    if (steps[s].kind == StepKind::kOpu) list.push_back(StepJson(s, steps[s], counters[s]));
  const Json doc{{"format", "opuc-profile"},
                 {"version", kProfileVersion},
                 {"device", device},
                 {"program",
                  {{"source_name", program.build().source_name},
                   {"source_sha256", program.build().source_sha256},
                   {"hw", program.hw().name},
                   {"steps", steps.size()}}},
                 {"steps", list}};
  // A model's file name may be any bytes: written with U+FFFD, not thrown on.
  const std::string text = JsonText(doc, 1) + "\n";
  return WriteFileBytes(path, text.data(), text.size());
}

Expected<Profile> ReadProfile(const std::string& path, const Program& program) {
  OPUC_ASSIGN_OR_RETURN(AlignedBytes bytes, ReadFileAligned(path));
  if (bytes.size > kMaxProfileBytes)
    return InvalidArgument(
        Cat(path, ": ", bytes.size, " bytes; a profile is at most ", kMaxProfileBytes));
  Expected<Json> doc = Parse(bytes);
  if (!doc.ok()) return doc.status().WithContext(path);
  Expected<Profile> profile = ReadDocument(*doc, program);
  if (!profile.ok()) return profile.status().WithContext(path);
  return profile;
}

}  // namespace opuc::cli
