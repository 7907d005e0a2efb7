// A compact load's DRAM beats and the cycles its paced requests take
// (src/codegen/transfers.h), worked by hand for opu1024 (L = 64, Co = 16:
// four granules a beat) against opu_load.sv's credits.
#include <doctest/doctest.h>

#include "transfers.h"

namespace opuc::codegen {
namespace {

isa::LoadInsn CompactRows(int64_t dram_addr, int64_t rows, int64_t cols, int64_t granules) {
  isa::LoadInsn fm;
  fm.buffer = isa::LoadInsn::kFeatureMap;
  fm.dram_addr = dram_addr;
  fm.rows = rows;
  fm.cols = cols;
  fm.dram_stride = 2048;
  fm.granules = granules;
  return fm;
}

TEST_CASE(
    "a compact load: the beats that hold its rows, and a pixel a cycle or its requests' pace") {
  // 28 pixels of one granule (448 bytes) a row from an aligned address: 7
  // beats a row, 14 in all; the 14th request goes 13 x 4 = 52 cycles after
  // the first, within the 56 pixels' cycles.
  const isa::LoadInsn aligned = CompactRows(4096, 2, 28, 1);
  CHECK(ReadBytes(aligned, 64, 16) == 14 * 64);
  CHECK(Written(aligned, 14, 64, 16, false) == 56);
  // The same rows 32 bytes into a beat touch 8 beats each: 16 requests, the
  // last 15 x 4 + 1 = 61 cycles on, past the 56 pixels.
  const isa::LoadInsn shifted = CompactRows(4096 + 32, 2, 28, 1);
  CHECK(ReadBytes(shifted, 64, 16) == 16 * 64);
  CHECK(Written(shifted, 16, 64, 16, false) == 61);
  // Two granules a pixel: a request every two cycles, 8 pixels (4 beats) a
  // row of 2 rows: 8 beats, the last (7 x 4 + 1 + 1) / 2 = 15 cycles on,
  // within the 16 pixels.
  const isa::LoadInsn two = CompactRows(0, 2, 8, 2);
  CHECK(ReadBytes(two, 64, 16) == 8 * 64);
  CHECK(Written(two, 8, 64, 16, false) == 16);
  // L-byte pixels are not paced.
  CHECK(Written(CompactRows(0, 2, 8, 0), 16, 64, 16, false) == 0);
}

TEST_CASE("a compact load into a feature-map buffer of two banks writes a pair of pixels a cycle") {
  // The 28-pixel rows: 14 pairs a row, 28 writes; the requests paced to 2
  // granules a cycle, the 14th (13 x 4 + 1 + 1) / 2 = 27 cycles on.
  const isa::LoadInsn aligned = CompactRows(4096, 2, 28, 1);
  CHECK(PixelWrites(aligned, true) == 28);
  CHECK(Written(aligned, 14, 64, 16, true) == 28);
  // Shifted by 32 bytes: 16 requests, the last (15 x 4 + 2) / 2 = 31 on.
  CHECK(Written(CompactRows(4096 + 32, 2, 28, 1), 16, 64, 16, true) == 31);
  // Two granules a pixel, 8 pixels a row: 4 pairs a row; 4 granules a
  // cycle, the 8th request (7 x 4 + 1 + 3) / 4 = 8 cycles on.
  CHECK(Written(CompactRows(0, 2, 8, 2), 8, 64, 16, true) == 8);
  // A row of 7 pixels ends with one alone: 4 writes a row.
  CHECK(PixelWrites(CompactRows(0, 3, 7, 1), true) == 12);
  // Zeros between the pixels (a transposed conv's input): one at a time.
  isa::LoadInsn spread = aligned;
  spread.zeros_x = 1;
  CHECK(PixelWrites(spread, true) == 56);
  CHECK(Written(spread, 14, 64, 16, true) == 56);
}

}  // namespace
}  // namespace opuc::codegen
