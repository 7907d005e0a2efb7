//===- oracle/fold_dequantize.h - Float16 weights made float32 -*- C++ -*-===//
//
// Arm NN 20.08's TFLite parser needs convolution weights in constant
// buffers, but the MediaPipe models compute them with DEQUANTIZE from
// float16 constants (environment.md §4). FoldDequantize writes a copy of a
// model in which every DEQUANTIZE of a float16 constant is gone: its output
// tensor holds the float32 values (exact, opuc::HalfToFloat) in a new
// buffer. Everything else is copied through FlatBuffers' object API of
// opuc's schema (schema/tflite.fbs), which holds every field Arm NN 20.08
// reads.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_ORACLE_FOLD_DEQUANTIZE_H
#define OPUC_ORACLE_FOLD_DEQUANTIZE_H

#include <cstdint>
#include <string_view>
#include <vector>

#include "opuc/status.h"

namespace opuc::oracle {

struct FoldedModel {
  std::vector<uint8_t> bytes;  ///< The rewritten .tflite.
  int folded = 0;              ///< DEQUANTIZE operators removed.
};

/// The model `bytes` with DEQUANTIZE(float16 constant) folded, in every
/// subgraph. Errors name `name`: a buffer that fails the FlatBuffers
/// verifier, a float16 constant whose size disagrees with its shape, or
/// constants stored outside the FlatBuffer (offset/size), which this copy
/// cannot carry.
Expected<FoldedModel> FoldDequantize(const std::vector<uint8_t>& bytes, std::string_view name);

}  // namespace opuc::oracle

#endif  // OPUC_ORACLE_FOLD_DEQUANTIZE_H
