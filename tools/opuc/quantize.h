//===- tools/opuc/quantize.h - `opuc quantize` ------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_QUANTIZE_H
#define OPUC_TOOLS_QUANTIZE_H

#include <optional>
#include <ostream>
#include <string>

#include "opuc/command.h"

namespace opuc::cli {

struct QuantizeOptions {
  std::string model;
  std::string calibration;         ///< Folder of .png/.jpg/.npy samples; empty: the fetched images.
  std::string preprocess;          ///< key=value,... over the model's defaults (opuc/image).
  std::string evaluate;            ///< Folder to evaluate on; empty: hold samples out.
  int holdout = 0;                 ///< Samples kept for evaluation; 0: a third (at least 1).
  std::optional<double> min_sqnr;  ///< Exit 1 when an output's SQNR is below.
  bool per_tensor = false;         ///< Also report every activation (text only).
  bool refine_lengths = false;     ///< opuc::QuantizeOptions::refine_lengths.
  std::string precision = "int8";  ///< int8, mixed or int16 (opuc::Precision).
  double target_sqnr = 25.0;       ///< opuc::QuantizeOptions::target_sqnr_db.
  bool wide_weights = false;       ///< opuc::QuantizeOptions::wide_weights.
  int threads = 0;                 ///< opuc::QuantizeOptions::threads.
  bool json = false;
  std::string output;  ///< Write the quantized graph (.opug or .opug.json).
};

/// Quantizes the model on the calibration samples and reports, per output,
/// how the integer executor (dequantized) compares with the float reference
/// on the held-out samples.
int RunQuantize(const QuantizeOptions& options, std::ostream& out, std::ostream& err);

/// `opuc quantize`: its options and how it runs (opuc_app.cc lists the commands).
Command AddQuantizeCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_QUANTIZE_H
