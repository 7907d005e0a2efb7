//===- opuc/frontend/tflite.h - The TFLite importer -------------*- C++ -*-===//
//
// Reads a .tflite model (a FlatBuffer with identifier "TFL3", the format of
// schema/tflite.fbs) into an IR graph. Three stages, each trusting only what
// the one before established: the FlatBuffers verifier, semantic checks of
// every index (operator codes, tensors, buffers), then the import of
// subgraph 0, operator by operator, with each IR node's inferred type checked
// against the type the file declares. The result passes Verify().
//
// An operator or option opuc cannot honour is an error naming the operator
// index, its TFLite name and the field; nothing is dropped silently. Constant
// tensors view the loaded buffer in place where their data is 16-byte
// aligned. docs/tflite-importer.md describes the mapping to IR ops.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_FRONTEND_TFLITE_H
#define OPUC_FRONTEND_TFLITE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc {

struct TfliteImport {
  Graph graph;
  /// Operators of the imported subgraph by TFLite name and count:
  /// "CONV_2D", "DEQUANTIZE", custom operators as "CUSTOM:<custom_code>".
  std::map<std::string, int> source_operators;
};

/// Imports the .tflite of `size` bytes at `data`, kept alive by `owner`.
/// When `data` is 16-byte aligned, constants view it in place (sharing
/// `owner`); otherwise it is first copied once into an aligned buffer. Every
/// error message starts with `source_name`, e.g.
///   "m.tflite: operator 12 (CONV_2D): builtin_options.fused_activation_function
///    is SIGN_BIT; opuc supports NONE, RELU, RELU_N1_TO_1, RELU6 and TANH".
Expected<TfliteImport> ReadTflite(std::shared_ptr<const void> owner, const uint8_t* data,
                                  size_t size, std::string_view source_name);

/// Copies `bytes` once into an aligned buffer and imports that.
Expected<TfliteImport> ReadTflite(const std::vector<uint8_t>& bytes, std::string_view source_name);

/// A .tflite's operators without importing it (what `opuc inspect` shows of a
/// model opuc cannot import). The buffer is verified and checked as for
/// ReadTflite; errors are prefixed with `source_name`.
struct TfliteOperators {
  std::map<std::string, int> counts;     ///< As TfliteImport::source_operators.
  std::vector<std::string> unsupported;  ///< Names in `counts` opuc cannot import, sorted.
};
Expected<TfliteOperators> ReadTfliteOperators(const uint8_t* data, size_t size,
                                              std::string_view source_name);

}  // namespace opuc

#endif  // OPUC_FRONTEND_TFLITE_H
