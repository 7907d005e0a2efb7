//===- opuc/image/preprocess.h - From an image to a model input -*- C++ -*-===//
//
// Turns an 8-bit RGB image into the f32 NHWC tensor [1, H, W, 3] a model
// takes:
//
//   1. resize to H × W, bilinear with half-pixel centres and no
//      antialiasing (docs/calibration.md gives the exact formula);
//   2. value = pixel × scale + offset, per channel;
//   3. channels in the requested order (rgb or bgr).
//
// Options come from DefaultPreprocess (model_defaults.h) or from a
// `--preprocess` text that ParsePreprocess reads:
//
//   size=128x128,scale=0.0078431373,offset=-1,order=rgb
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IMAGE_PREPROCESS_H
#define OPUC_IMAGE_PREPROCESS_H

#include <cstdint>
#include <string>
#include <string_view>

#include "opuc/image/image.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

enum class ChannelOrder : uint8_t { kRgb, kBgr };

/// "rgb", "bgr".
std::string_view ChannelOrderName(ChannelOrder order);

struct PreprocessOptions {
  /// Output size; 0 × 0 means "not chosen yet" (LoadCalibrationSet takes it
  /// from the model's input, Preprocess refuses it).
  int32_t height = 0;
  int32_t width = 0;
  /// value = pixel × scale + offset, pixel in [0, 255] after resizing.
  /// The default maps pixels to [0, 1].
  double scale = 1.0 / 255.0;
  double offset = 0.0;
  ChannelOrder order = ChannelOrder::kRgb;

  bool operator==(const PreprocessOptions& o) const {
    return height == o.height && width == o.width && scale == o.scale && offset == o.offset &&
           order == o.order;
  }
};

/// The largest output height or width Preprocess accepts.
inline constexpr int32_t kMaxPreprocessSide = 16384;

/// Reads comma-separated `key=value` pairs over `defaults`: keys not named
/// keep their default. Keys: size=HxW (positive integers), scale, offset
/// (finite decimals), order=rgb|bgr; each at most once. Blanks around keys
/// and values are ignored; an empty text gives `defaults`. Errors name the
/// key (or the pair) at fault and what was expected.
Expected<PreprocessOptions> ParsePreprocess(std::string_view text,
                                            const PreprocessOptions& defaults = {});

/// The text ParsePreprocess reads back to the same options, e.g.
/// "size=128x128,scale=0.00784313725490196,offset=-1.0,order=rgb". An unset
/// size is left out.
std::string FormatPreprocess(const PreprocessOptions& options);

/// The f32 tensor [1, height, width, 3] of `image` under `options`. Errors:
/// an empty image, a size that is unset or above kMaxPreprocessSide, a
/// non-finite scale or offset.
Expected<HostTensor> Preprocess(const Image& image, const PreprocessOptions& options);

}  // namespace opuc

#endif  // OPUC_IMAGE_PREPROCESS_H
