//===- src/opu/hw_config_fields.h - HwConfig's numbers, each named once -*- C++ -*-===//
//
// The JSON reader, the JSON writer and the validator all walk this table, so
// a new field of HwConfig is one line in hw_config_fields.cc. A field's path
// is both its place in a JSON file and its name in messages. The name, the
// store's taps and the HDFG are not numbers; each reader handles them itself.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_OPU_HW_CONFIG_FIELDS_H
#define OPUC_SRC_OPU_HW_CONFIG_FIELDS_H

#include <cstdint>
#include <variant>
#include <vector>

#include "opuc/opu/hw_config.h"

namespace opuc {

/// Where a field lives in one config.
using HwFieldRef = std::variant<int64_t*, double*, bool*>;

struct HwField {
  const char* path;  ///< "buffers.weight.banks"
  HwFieldRef (*ref)(HwConfig&);
  /// The least and the greatest value of an integer field; a real-valued
  /// field must be positive and at most `maximum`; a bool takes either value. The greatest
  /// keeps every size a program derives from the config (buffers the
  /// simulator allocates, DRAM word alignment) far inside memory and int64.
  int64_t minimum;
  int64_t maximum;
  /// A field added after programs were first written: a document without a
  /// base may leave it out (a program written before it), which means
  /// hardware without the feature, the field's 0.
  bool added_later = false;
};

/// The most bytes one buffer may have, its banks together: 32 times
/// opu1024's largest, and the simulator's four buffers stay under 100 MiB.
inline constexpr int64_t kMaxBufferBytes = int64_t{1} << 24;

/// Every number and flag of HwConfig, in the order files list them.
const std::vector<HwField>& HwConfigFields();

}  // namespace opuc

#endif  // OPUC_SRC_OPU_HW_CONFIG_FIELDS_H
