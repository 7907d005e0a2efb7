//===- tools/opuc/precision_report.cc - What the precision choice chose ---===//
#include "opuc/precision_report.h"

#include <cmath>
#include <cstdio>

namespace opuc::cli {
namespace {

std::string FormatFixed(double value, const char* format) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

nlohmann::ordered_json NullableDb(double db) {
  return std::isfinite(db) ? nlohmann::ordered_json(db) : nlohmann::ordered_json(nullptr);
}

}  // namespace

std::string PrecisionSummary(const std::string& setting, const QuantizeReport& report) {
  std::string text = setting + ": " + std::to_string(report.i16_tensors) + " i16, " +
                     std::to_string(report.u8_tensors) + " u8, " +
                     std::to_string(report.i8_tensors) + " i8 activations";
  if (report.wide_weight_layers > 0)
    text += ", " + std::to_string(report.wide_weight_layers) + " layers with 16-bit weights";
  text +=
      ": " + FormatFixed(report.extra_mac_passes_percent, "+%.1f%%") + " array passes over int8";
  if (report.held_out_samples > 0 && std::isfinite(report.held_out_sqnr_db))
    text += "; " + FormatFixed(report.held_out_sqnr_db, "%.1f") +
            " dB least output SQNR against the 16-bit program on " +
            std::to_string(report.held_out_samples) +
            " calibration views, each kept from its program's statistics";
  return text;
}

nlohmann::ordered_json PrecisionJson(const std::string& setting, const QuantizeReport& report) {
  nlohmann::ordered_json j = {
      {"setting", setting},
      {"u8", report.u8_tensors},
      {"i8", report.i8_tensors},
      {"i16", report.i16_tensors},
      {"extra_mac_passes_percent", report.extra_mac_passes_percent},
      {"wide_weight_layers", report.wide_weight_layers},
      {"calibration_sqnr_db", report.precision_rounds > 0 ? NullableDb(report.calibration_sqnr_db)
                                                          : nlohmann::ordered_json(nullptr)}};
  if (report.candidate_groups + report.candidate_layers > 0) {
    j["held_out_sqnr_db"] = report.held_out_samples > 0 ? NullableDb(report.held_out_sqnr_db)
                                                        : nlohmann::ordered_json(nullptr);
    j["held_out_samples"] = report.held_out_samples;
    j["candidate_groups"] = report.candidate_groups;
    j["candidate_layers"] = report.candidate_layers;
    j["measured_settings"] = report.precision_rounds;
  }
  return j;
}

}  // namespace opuc::cli
