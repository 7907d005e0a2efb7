//===- opuc/opug/opug.h - The .opug graph format ------------*- C++ -*-===//
//
// A .opug file is one IR graph as a FlatBuffer (schema/opug.fbs, identifier
// "OPUG"); a .opug.json file is the same schema as JSON text, read through
// FlatBuffers' own parser. Readers run the FlatBuffers verifier first, then
// opuc's semantic checks, then Verify(graph), so a graph they return is
// well-formed; no input makes them crash. Constant data is not copied: the
// graph's constants view the loaded buffer. docs/graph-format.md has details.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPUG_OPUG_H
#define OPUC_OPUG_OPUG_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc {

/// The newest .opug format version this library reads and the one it writes.
inline constexpr uint32_t kOpugVersion = 1;

/// Reads the binary .opug of `size` bytes at `data`, kept alive by `owner`.
/// When `data` is aligned to kConstantAlignment the graph's constants view it
/// in place (they share `owner`); otherwise it is first copied once into an
/// aligned buffer. Every error message starts with `source_name` and names the
/// table and index at fault, e.g.
///   "tiny.opug: node 2 'pool': unknown op 'max_pool'".
Expected<Graph> ReadOpug(std::shared_ptr<const void> owner, const uint8_t* data, size_t size,
                         std::string_view source_name);

/// Copies `bytes` once into an aligned buffer and reads that; the graph's
/// constants view the copy.
Expected<Graph> ReadOpug(const std::vector<uint8_t>& bytes, std::string_view source_name);

/// Serializes a graph that passes Verify. Buffer 0 is empty, each constant
/// gets its own 16-byte aligned buffer, every attribute is written; the bytes
/// depend only on the graph, so the same graph always gives the same bytes.
Expected<std::vector<uint8_t>> WriteOpug(const Graph& graph);

/// The JSON form of a graph that passes Verify (valid JSON: quoted keys,
/// doubles printed so that they read back exactly).
Expected<std::string> OpugToJson(const Graph& graph);

/// Parses the JSON form with FlatBuffers' parser and reads the resulting
/// binary with ReadOpug, so the same checks apply. Parse errors keep the
/// parser's line and column. Without the parser (OpugJsonReaderAvailable()
/// is false) it returns kUnsupported.
Expected<Graph> ReadOpugJson(std::string_view text, std::string_view source_name);

/// Whether this build links FlatBuffers' parser, which ReadOpugJson needs.
/// Cross builds go without it (docs/cross-compiling.md); everything else in
/// this header works either way.
bool OpugJsonReaderAvailable();

/// Whether `path` names the JSON form: it ends in ".json" (".opug.json").
bool IsOpugJsonPath(std::string_view path);

/// Reads a .opug or .opug.json file, chosen by the suffix (IsOpugJsonPath).
/// A binary file is read with one read into an aligned buffer that the
/// graph's constants then view. File errors name the path and the OS reason.
Expected<Graph> LoadOpugFile(const std::string& path);

/// Writes `graph` as .opug or .opug.json, chosen by the suffix.
Status SaveOpugFile(const Graph& graph, const std::string& path);

}  // namespace opuc

#endif  // OPUC_OPUG_OPUG_H
