//===- sim/dram_model.cc - DRAM as the RTL sees it ------------------------===//
#include "dram_model.h"

#include <algorithm>
#include <cstring>

#include "support/format.h"

namespace opuc::rtl {

DramModel::DramModel(const HwConfig& hw, std::vector<uint8_t>& image, int64_t beat_bytes,
                     int64_t writable)
    : image_(image),
      beat_bytes_(beat_bytes),
      writable_(writable < 0 ? image.size() : static_cast<uint64_t>(writable)),
      word_bytes_(std::max<int64_t>(1, hw.dram.word_bits / 8)),
      latency_(std::max<int64_t>(1, hw.dram.latency_cycles)),
      bytes_per_cycle_(hw.dram.bandwidth_gb_per_s * 1000.0 / hw.array.clock_mhz) {}

void DramModel::Tick() {
  // The budget never banks more than two words: bandwidth unused in an
  // idle stretch is lost, as on a real bus.
  budget_ = std::min(budget_ + bytes_per_cycle_, static_cast<double>(word_bytes_ * 2));
}

int64_t DramModel::WordsTouched(uint64_t addr, int64_t bytes) const {
  const auto w = static_cast<uint64_t>(word_bytes_);
  return static_cast<int64_t>((addr + static_cast<uint64_t>(bytes) + w - 1) / w - addr / w);
}

Status DramModel::Read(uint64_t addr, int64_t now) {
  if (addr + static_cast<uint64_t>(beat_bytes_) > image_.size())
    return InvalidArgument(Cat("the load engine reads DRAM bytes ", addr, " to ",
                               addr + static_cast<uint64_t>(beat_bytes_) - 1, "; the image has ",
                               image_.size()));
  const int64_t words = WordsTouched(addr, beat_bytes_);
  budget_ -= static_cast<double>(words * word_bytes_);
  stats_.words += words;
  ++stats_.reads;
  Pending p;
  p.ready = now + latency_;
  p.data.assign(image_.begin() + static_cast<std::ptrdiff_t>(addr),
                image_.begin() + static_cast<std::ptrdiff_t>(addr) + beat_bytes_);
  responses_.push_back(std::move(p));
  return OkStatus();
}

const uint8_t* DramModel::Response(int64_t now) const {
  if (responses_.empty() || responses_.front().ready > now) return nullptr;
  return responses_.front().data.data();
}

Status DramModel::Write(uint64_t addr, const uint8_t* data, const std::vector<bool>& mask) {
  int64_t last = -1;
  for (size_t i = 0; i < mask.size(); ++i)
    if (mask[i]) last = static_cast<int64_t>(i);
  if (last < 0) return OkStatus();
  if (addr + static_cast<uint64_t>(last) >= writable_)
    return InvalidArgument(Cat("the store engine writes DRAM byte ",
                               addr + static_cast<uint64_t>(last), "; the image has ", writable_));
  for (size_t i = 0; i < mask.size(); ++i)
    if (mask[i]) image_[addr + i] = data[i];
  const int64_t words = WordsTouched(addr, last + 1);
  budget_ -= static_cast<double>(words * word_bytes_);
  stats_.words += words;
  ++stats_.writes;
  return OkStatus();
}

}  // namespace opuc::rtl
