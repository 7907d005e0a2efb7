// When a first layer's fold takes pixel pairs (PairsCutPasses): array passes
// of each way worked out by hand on opu1024's 64 x 16 array.
#include <doctest/doctest.h>

#include "input_fold.h"

namespace opuc::codegen {
namespace {

// A square kernel's fold over a square input of `c` channels.
InputFold Fold(int64_t in, int64_t c, int64_t k, int64_t stride, int64_t pad, int64_t out) {
  InputFold f;
  f.kernel_h = f.kernel_w = k;
  f.stride_h = f.stride_w = stride;
  f.pad_top = f.pad_left = pad;
  f.out_h = f.out_w = out;
  f.in_h = f.in_w = in;
  f.in_c = c;
  return f;
}

InnerProductGroup Conv(int64_t out_c) {
  InnerProductGroup g;
  g.out_c = out_c;
  return g;
}

TEST_CASE("fold pairs: a 3x3 layer over 3 channels pairs only without pointwise pairs") {
  // The hand models' first layer: 224x224x3, 3x3 stride 2 to 112x112x24.
  // Single: 27 lanes, 1 pass x 2 blocks x 112 = 224 a row; in pointwise
  // pairs 112. Pixel pairs: 3 x 5 x 3 = 45 lanes, 1 pass x 3 blocks of 8
  // channels x 56 = 168.
  const InputFold f = Fold(224, 3, 3, 2, 0, 112);
  CHECK(PairsCutPasses(f, Conv(24), 64, 16, /*pointwise_pairs=*/false));       // 168 < 224
  CHECK_FALSE(PairsCutPasses(f, Conv(24), 64, 16, /*pointwise_pairs=*/true));  // 168 > 112
}

TEST_CASE("fold pairs: 5x5 over 3 channels pairs, and would not if pointwise pairs took it") {
  // The face detector's: 128x128x3, 5x5 stride 2 to 64x64x24. Single: 2
  // passes x 2 blocks x 64 = 256 (its 75 lanes do not fit half: no
  // pointwise pairs, UsesDensePairs); pairs: 5 x 7 x 3 = 105 lanes, 2
  // passes x 3 blocks x 32 = 192. Pointwise pairs would take single to 128.
  const InputFold f = Fold(128, 3, 5, 2, 1, 64);
  CHECK(PairsCutPasses(f, Conv(24), 64, 16, false));
  CHECK_FALSE(PairsCutPasses(f, Conv(24), 64, 16, true));
}

TEST_CASE("fold pairs: an odd width cannot pair pointwise, so pixel pairs still cut passes") {
  // 15x15x3, 3x3 stride 2 VALID to 7x7x24. Single: 1 x 2 x 7 = 14 (no
  // pointwise pairs over an odd width); pairs: 1 x 3 x 4 = 12.
  const InputFold f = Fold(15, 3, 3, 2, 0, 7);
  CHECK(PairsCutPasses(f, Conv(24), 64, 16, true));
  // 16 output channels: single 1 x 1 x 7 = 7, pairs 1 x 2 x 4 = 8.
  CHECK_FALSE(PairsCutPasses(f, Conv(16), 64, 16, true));
}

}  // namespace
}  // namespace opuc::codegen
