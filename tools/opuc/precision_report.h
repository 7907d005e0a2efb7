//===- tools/opuc/precision_report.h - What the precision choice chose -*- C++ -*-===//
//
// One line for `opuc compile`'s summary and one JSON object for its report
// and `opuc quantize --json`: the setting asked for, what the quantizer
// chose (u8, i8, i16 activations; layers with 16-bit weights) and what it
// costs: extra array passes over int8, in percent of the model's MACs.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_PRECISION_REPORT_H
#define OPUC_TOOLS_PRECISION_REPORT_H

#include <nlohmann/json.hpp>
#include <string>

#include "opuc/quant/quantize.h"

namespace opuc::cli {

/// "auto: 12 i16 activations, 3 of 40 layers with 16-bit weights: +21.0% array
/// passes over int8; 27.3 dB least output SQNR against the 16-bit program on 12
/// calibration views, each kept from its program's statistics".
std::string PrecisionSummary(const std::string& setting, const QuantizeReport& report);

nlohmann::ordered_json PrecisionJson(const std::string& setting, const QuantizeReport& report);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_PRECISION_REPORT_H
