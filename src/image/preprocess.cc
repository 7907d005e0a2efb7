//===- src/image/preprocess.cc - From an image to a model input -----------===//
#include "opuc/image/preprocess.h"

#include <array>
#include <cmath>

#include "resize_bilinear.h"
#include "support/format.h"

namespace opuc {

std::string_view ChannelOrderName(ChannelOrder order) {
  return order == ChannelOrder::kBgr ? "bgr" : "rgb";
}

Expected<HostTensor> Preprocess(const Image& image, const PreprocessOptions& options) {
  if (image.width <= 0 || image.height <= 0)
    return InvalidArgument(
        Cat("preprocess: the image is empty (", image.width, "x", image.height, ")"));
  if (image.pixels.size() !=
      static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3)
    return InvalidArgument(
        Cat("preprocess: the image holds ", image.pixels.size(), " bytes; ", image.width, "x",
            image.height, " RGB needs ",
            static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3));
  if (options.height <= 0 || options.width <= 0)
    return InvalidArgument(Cat("preprocess: size is not set (", options.height, "x", options.width,
                               "); give size=HxW"));
  if (options.height > kMaxPreprocessSide || options.width > kMaxPreprocessSide)
    return InvalidArgument(Cat("preprocess: size ", options.height, "x", options.width,
                               " is larger than ", kMaxPreprocessSide, " on a side"));
  if (!std::isfinite(options.scale) || !std::isfinite(options.offset))
    return InvalidArgument(Cat("preprocess: scale (", options.scale, ") and offset (",
                               options.offset, ") must be finite"));

  OPUC_ASSIGN_OR_RETURN(HostTensor tensor,
                        HostTensor::Zeros(DType::kF32, {1, options.height, options.width, 3}));
  const std::vector<BilinearTap> rows = BilinearTaps(image.height, options.height);
  const std::vector<BilinearTap> cols = BilinearTaps(image.width, options.width);
  // Output channel k reads image channel source[k].
  const std::array<int32_t, 3> source = options.order == ChannelOrder::kBgr
                                            ? std::array<int32_t, 3>{2, 1, 0}
                                            : std::array<int32_t, 3>{0, 1, 2};
  float* out = tensor.data<float>();
  for (const BilinearTap& ty : rows) {
    for (const BilinearTap& tx : cols) {
      for (int32_t k = 0; k < 3; ++k) {
        const int32_t c = source[static_cast<size_t>(k)];
        const double top =
            (1.0 - tx.frac) * image.at(ty.lo, tx.lo, c) + tx.frac * image.at(ty.lo, tx.hi, c);
        const double bottom =
            (1.0 - tx.frac) * image.at(ty.hi, tx.lo, c) + tx.frac * image.at(ty.hi, tx.hi, c);
        const double pixel = (1.0 - ty.frac) * top + ty.frac * bottom;
        *out++ = static_cast<float>(pixel * options.scale + options.offset);
      }
    }
  }
  return tensor;
}

}  // namespace opuc
