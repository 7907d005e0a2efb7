//===- src/cpu/integer_chain.cc - A quantized elementwise tail ----===//
#include "integer_chain.h"

#include <algorithm>
#include <limits>

#include "broadcast.h"
#include "fused_match.h"
#include "integer_util.h"
#include "kept_buffer.h"
#include "requant32.h"

namespace opuc::cpu {
namespace {

using Step = IntegerChain::Step;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

int64_t Magnitude(DType format) {
  const reference::IntRange r = reference::FormatRange(format);
  return std::max(-r.lo, r.hi);
}

Activation ClampOf(OpKind op) {
  return op == OpKind::kRelu6       ? Activation::kRelu6
         : op == OpKind::kReluN1To1 ? Activation::kReluN1To1
                                    : Activation::kRelu;
}

// The loops below are functions of their own, not inlined: inlined into a
// lambda, GCC 12 drops the pointers' restrict and leaves them scalar.

template <typename In>
[[gnu::noinline]] void Widen(const In* __restrict x, int32_t* __restrict v, int64_t count) {
  for (int64_t i = 0; i < count; ++i) v[i] = x[i];
}

template <typename Out>
[[gnu::noinline]] void Narrow(const int32_t* __restrict v, Out* __restrict y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = static_cast<Out>(v[i]);
}

/// v[i] = fn(v[i]).
template <typename Fn>
[[gnu::noinline]] void Each(int32_t* __restrict v, int64_t count, Fn fn) {
  for (int64_t i = 0; i < count; ++i) v[i] = fn(v[i]);
}

/// v[i] = fn(v[i], o) with o the other operand's element for i: of the
/// output's shape (read from element `offset` on), or one value.
template <typename O, typename Fn>
[[gnu::noinline]] void Combine(int32_t* __restrict v, const O* __restrict other,
                               ChainStep::Operand operand, int64_t offset, int64_t count, Fn fn) {
  if (operand == ChainStep::Operand::kWhole) {
    other += offset;
    for (int64_t i = 0; i < count; ++i) v[i] = fn(v[i], int32_t{other[i]});
    return;
  }
  const int32_t o = other[0];
  for (int64_t i = 0; i < count; ++i) v[i] = fn(v[i], o);
}

/// v[i] = fn(v[i], repeated[i mod period]), the block starting at channel 0.
template <typename Fn>
[[gnu::noinline]] void CombineRows(int32_t* __restrict v, const int32_t* __restrict repeated,
                                   int64_t period, int64_t count, Fn fn) {
  for (int64_t r = 0; r < count; r += period) {
    int32_t* __restrict row = v + r;
    const int64_t n = std::min(period, count - r);
    for (int64_t c = 0; c < n; ++c) row[c] = fn(row[c], repeated[c]);
  }
}

int32_t Narrowed(int64_t v) { return static_cast<int32_t>(v); }  // within the step's range

void RunStep(const Step& s, int32_t* v, int64_t offset, int64_t count, int64_t period) {
  if (s.op == OpKind::kLookupTable) {  // the entries are in the output's format already
    const int32_t* t = s.repeated.data();
    if (s.interpolate) {
      Each(v, count, [t](int32_t q) {
        const Int16Bytes b = SplitInt16(q);
        return Narrowed(Interpolate(t[b.high + 128], t[b.high + 129], b.low));
      });
    } else {
      const int32_t at = s.table_offset;
      Each(v, count, [t, at](int32_t q) { return t[q + at]; });
    }
    return;
  }
  if (IsClamp(s.op)) {
    if (s.int32) {
      const FixedRequant r(s.shift, s.lo, s.hi);
      Each(v, count, [r](int32_t x) { return r(x); });
    } else {
      Each(v, count, [s](int32_t x) { return Narrowed(RequantTo(x, s.shift, s.lo, s.hi)); });
    }
    return;
  }
  reference::VisitFormat(s.other->dtype(), [&](auto tag) {
    const auto combine = [&](auto fn) {
      if (s.operand == ChainStep::Operand::kChannel)
        CombineRows(v, s.repeated.data(), period, count, fn);
      else
        Combine(v, s.other->data<decltype(tag)>(), s.operand, offset, count, fn);
    };
    const FixedRequant r(std::min(s.shift, 30), s.lo, s.hi);
    if (s.op == OpKind::kAdd || s.op == OpKind::kSub) {
      if (s.int32) {
        const auto a = static_cast<int32_t>(s.value_scale), b = static_cast<int32_t>(s.other_scale);
        combine([r, a, b](int32_t x, int32_t y) { return r(x * a + y * b); });
      } else {
        combine([s](int32_t x, int32_t y) {
          return Narrowed(RequantTo(x * s.value_scale + y * s.other_scale, s.shift, s.lo, s.hi));
        });
      }
    } else if (s.op == OpKind::kMul) {
      if (s.int32)
        combine([r](int32_t x, int32_t y) { return r(x * y); });
      else
        combine([s](int32_t x, int32_t y) {
          return Narrowed(RequantTo(int64_t{x} * y, s.shift, s.lo, s.hi));
        });
    } else if (s.int32) {  // prelu
      const FixedRequant positive(s.up, s.lo, s.hi);
      combine([r, positive](int32_t x, int32_t a) { return x >= 0 ? positive(x) : r(x * a); });
    } else {
      combine([s](int32_t x, int32_t a) {
        return Narrowed(x >= 0 ? RequantTo(x, s.up, s.lo, s.hi)
                               : RequantTo(int64_t{x} * a, s.shift, s.lo, s.hi));
      });
    }
  });
}

/// The parameters of binary step `c` on node `ctx`, whose running value
/// (so far in format `value`) is one operand.
Status BinaryStep(const reference::KernelContext& ctx, const ChainStep& c, DType value, Step& s) {
  const bool prelu = c.op == OpKind::kPRelu;
  OPUC_ASSIGN_OR_RETURN(
      const reference::BinaryFractions f,
      reference::ReadBinaryFractions(ctx, prelu ? "input" : "lhs", prelu ? "alpha" : "rhs", prelu));
  OPUC_ASSIGN_OR_RETURN(const reference::IntRange range, reference::OutputRange(ctx, f.out));
  s.lo = range.lo, s.hi = range.hi;
  const int64_t largest_product = Magnitude(value) * Magnitude(s.other->dtype());
  if (c.op == OpKind::kAdd || c.op == OpKind::kSub) {
    const int top = std::max({f.lhs, f.rhs, f.out});
    const int f_value = c.value_first ? f.lhs : f.rhs, f_other = c.value_first ? f.rhs : f.lhs;
    s.value_scale = int64_t{1} << (top - f_value);
    s.other_scale = int64_t{1} << (top - f_other);
    if (c.op == OpKind::kSub) (c.value_first ? s.other_scale : s.value_scale) *= -1;
    s.shift = top - f.out;
    s.int32 = Requant32::Covers(s.shift) &&
              Magnitude(value) * std::abs(s.value_scale) +
                      Magnitude(s.other->dtype()) * std::abs(s.other_scale) <=
                  kInt32Max;
  } else if (c.op == OpKind::kMul) {
    s.shift = f.lhs + f.rhs - f.out;
    s.int32 = Requant32::Covers(s.shift) && largest_product <= kInt32Max;
  } else {
    s.up = f.lhs - f.out;
    s.shift = f.lhs + f.rhs - f.out;
    s.int32 = Requant32::Covers(s.up) && Requant32::Covers(s.shift) && largest_product <= kInt32Max;
  }
  return OkStatus();
}

struct ChainValues;  // KeptBuffer tag

}  // namespace

Expected<IntegerChain> IntegerChain::Make(const Graph& body, const FusedTail& tail,
                                          const std::vector<const HostTensor*>& others,
                                          HostTensor* out) {
  const std::vector<const HostTensor*> no_inputs;
  const std::vector<TensorType> no_types;
  DType value = body.tensor(tail.start).dtype;
  std::vector<Step> steps;
  for (size_t k = 0; k < tail.steps.size(); ++k) {
    const ChainStep& c = tail.steps[k];
    const reference::KernelContext ctx(body, tail.nodes[k], no_inputs, no_types, nullptr);
    Step s;
    s.op = c.op;
    s.operand = c.operand;
    s.other = others[k];
    if (IsClamp(c.op)) {
      OPUC_ASSIGN_OR_RETURN(const int f_in, reference::InputFraction(ctx, 0, "input"));
      OPUC_ASSIGN_OR_RETURN(const int f_out, reference::OutputFraction(ctx));
      OPUC_ASSIGN_OR_RETURN(
          const reference::IntRange range,
          reference::ActivationRange(ClampOf(c.op), f_out, ctx.output_tensor().dtype));
      s.lo = range.lo, s.hi = range.hi;
      s.shift = f_in - f_out;
      s.int32 = Requant32::Covers(s.shift);
    } else if (c.op == OpKind::kLookupTable) {
      // As the reference: an 8-bit value indexes 256 entries, an i16 one 257 knots.
      const int64_t entries = value == DType::kI16 ? 257 : 256;
      if (!s.other || !IsQuantizedFormat(s.other->dtype()) || s.other->elements() != entries)
        return InvalidArgument("a lookup_table's table does not fit its input");
      s.repeated = reference::Widened(*s.other);
      s.table_offset = value == DType::kI8 ? 128 : 0;
      s.interpolate = value == DType::kI16;
      s.int32 = true;
    } else {
      if (!s.other || !IsQuantizedFormat(s.other->dtype()))
        return InternalError("an integer chain's step has no quantized operand");
      OPUC_RETURN_IF_ERROR(BinaryStep(ctx, c, value, s));
    }
    steps.push_back(s);
    value = ctx.output_tensor().dtype;
  }
  const Shape& shape = body.tensor(tail.start).shape;
  return IntegerChain(std::move(steps), shape.empty() ? 1 : std::max<int64_t>(shape.back(), 1),
                      out);
}

IntegerChain::IntegerChain(std::vector<Step> steps, int64_t channels, HostTensor* out)
    : steps_(std::move(steps)), out_(out) {
  constexpr int64_t kLongEnough = 256;  // int32 elements: a few AVX-512 vectors
  period_ = (kLongEnough + channels - 1) / channels * channels;
  for (Step& s : steps_) {
    if (s.operand != ChainStep::Operand::kChannel) continue;
    s.repeated.resize(static_cast<size_t>(period_));
    reference::VisitFormat(s.other->dtype(), [&](auto tag) {
      const auto* o = s.other->data<decltype(tag)>();
      for (int64_t i = 0; i < period_; ++i) s.repeated[static_cast<size_t>(i)] = o[i % channels];
    });
  }
}

void IntegerChain::Apply(const HostTensor& first, int64_t offset, int64_t count) const {
  Apply(first, offset, count, [this](const int32_t* values, int64_t at, int64_t size) {
    reference::VisitFormat(
        out_->dtype(), [&](auto tag) { Narrow(values, out_->data<decltype(tag)>() + at, size); });
  });
}

void IntegerChain::Apply(const HostTensor& first, int64_t offset, int64_t count,
                         const Sink& sink) const {
  // A few KB of int32 at a time, whole repetitions of the channel
  // operands, so that every step's pass stays in L1.
  const int64_t chunk = std::max<int64_t>(1, 1024 / period_) * period_;
  std::vector<int32_t>& v = KeptBuffer<int32_t, ChainValues>();
  v.resize(static_cast<size_t>(std::min(chunk, count)));
  for (int64_t done = 0; done < count; done += chunk) {
    const int64_t at = offset + done, size = std::min(chunk, count - done);
    reference::VisitFormat(
        first.dtype(), [&](auto tag) { Widen(first.data<decltype(tag)>() + at, v.data(), size); });
    for (const Step& s : steps_) RunStep(s, v.data(), at, size, period_);
    sink(v.data(), at, size);
  }
}

}  // namespace opuc::cpu
