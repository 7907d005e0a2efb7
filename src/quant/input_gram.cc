//===- src/quant/input_gram.cc - What each inner product sees -------------===//
#include "input_gram.h"

#include <Eigen/Core>
#include <algorithm>
#include <system_error>

#include "compensated_rounding.h"
#include "opuc/ir/conv_geometry.h"
#include "support/parallel_for.h"

namespace opuc::quant {
namespace {

bool HasGram(const Graph& graph, const Node& node) {
  if (node.op != OpKind::kConv2D && node.op != OpKind::kDepthwiseConv2D &&
      node.op != OpKind::kFullyConnected)
    return false;
  const Tensor& w = graph.tensor(node.inputs[1]);
  return w.is_constant() && !w.sparsity && w.dtype == DType::kF32;
}

/// Columns of patches: column j holds tap j of every sampled position, so
/// that G[a][b] is one contiguous dot product.
struct Patches {
  int64_t dim = 0, rows = 0;
  std::vector<float> columns;  // dim × rows
  float* column(int64_t j) { return columns.data() + j * rows; }
  const float* column(int64_t j) const { return columns.data() + j * rows; }
};

/// G += XᵀX for the patches X (`rows` × `dim`, column-major as Patches
/// holds it) into G's lower triangle, then mirrored (both triangles
/// written): one Eigen rank update, or from dim 192 blocks of 64 columns,
/// each one matrix product on one of up to `threads` threads (measured
/// 1.5x faster on two cores there, slower below). The choice depends on dim
/// alone, so the sums do not depend on the threads. The products are summed
/// in float, each block then added to G in double: the portable baseline's
/// vectors (SSE2) hold four floats but two doubles, and the Gram matrices
/// were a quarter of a large model's compile (decisions.md: what it moved).
void AddOuterProducts(const Patches& x, double* gram, int threads = 1) {
  constexpr Eigen::Index kBlock = 64;
  const auto dim = static_cast<Eigen::Index>(x.dim);
  const Eigen::Map<const Eigen::MatrixXf> patches(x.columns.data(),
                                                  static_cast<Eigen::Index>(x.rows), dim);
  Eigen::Map<Eigen::MatrixXd> g(gram, dim, dim);  // symmetric: either storage order
  if (dim < 3 * kBlock) {
    Eigen::MatrixXf f = Eigen::MatrixXf::Zero(dim, dim);
    f.selfadjointView<Eigen::Lower>().rankUpdate(patches.transpose());
    g.triangularView<Eigen::Lower>() += f.cast<double>();
  } else {
    ParallelFor((dim + kBlock - 1) / kBlock, threads, [&](int64_t b) {
      const Eigen::Index j0 = static_cast<Eigen::Index>(b) * kBlock,
                         size = std::min(kBlock, dim - j0);
      const Eigen::MatrixXf f =
          patches.rightCols(dim - j0).transpose() * patches.middleCols(j0, size);
      g.block(j0, j0, dim - j0, size) += f.cast<double>();
    });
  }
  for (Eigen::Index j = 0; j < dim; ++j)
    for (Eigen::Index i = j + 1; i < dim; ++i) g(j, i) = g(i, j);
}

/// The patches kept as they are while they number at most dim / 2 (the
/// rounding factor's short form), else summed into G.
void AddPatches(Patches& x, InputGram& gram, int threads) {
  const int64_t dim = gram.dim;
  if (gram.values.empty() && 2 * (gram.samples + x.rows) <= dim) {
    std::vector<float> joined(static_cast<size_t>(dim * (gram.samples + x.rows)));
    auto out = joined.begin();
    for (int64_t i = 0; i < dim; ++i) {
      const auto held = gram.patches.begin() + static_cast<std::ptrdiff_t>(i * gram.samples);
      out = std::copy(held, held + static_cast<std::ptrdiff_t>(gram.samples), out);
      out = std::copy(x.column(i), x.column(i) + x.rows, out);
    }
    gram.patches.swap(joined);
    gram.samples += x.rows;
    return;
  }
  if (gram.values.empty()) {
    gram.values.assign(static_cast<size_t>(dim * dim), 0.0);
    Patches held{dim, gram.samples, std::move(gram.patches)};
    if (held.rows > 0) AddOuterProducts(held, gram.values.data(), threads);
    gram.patches.clear();
    gram.samples = 0;
  }
  AddOuterProducts(x, gram.values.data(), threads);
}

/// Every stride-th of `count` positions, at most kMaxGramPositions of them.
std::vector<int64_t> SampledPositions(int64_t count) {
  const int64_t stride = std::max<int64_t>(1, (count + kMaxGramPositions - 1) / kMaxGramPositions);
  std::vector<int64_t> positions;
  for (int64_t p = 0; p < count; p += stride) positions.push_back(p);
  return positions;
}

void AccumulateFullyConnected(const HostTensor& input, int64_t dim, InputGram& gram, int threads) {
  const float* x = input.data<float>();
  const std::vector<int64_t> rows = SampledPositions(input.elements() / dim);
  Patches patches{dim, static_cast<int64_t>(rows.size()), {}};
  patches.columns.resize(static_cast<size_t>(dim * patches.rows));
  for (int64_t r = 0; r < patches.rows; ++r)
    for (int64_t i = 0; i < dim; ++i)
      patches.column(i)[r] = x[rows[static_cast<size_t>(r)] * dim + i];
  AddPatches(patches, gram, threads);
}

/// Where output position p of a window op reads: batch n, output (y, x).
struct Position {
  int64_t n, y, x;
};

Position PositionOf(const Shape& out, int64_t p) {
  return {p / (out[1] * out[2]), p / out[2] % out[1], p % out[2]};
}

/// Calls fn(tap, pixel) for every tap of output position p's window, in
/// the weights' order: `pixel` points at channel 0 of the input pixel the
/// tap reads, or is null where it reads padding.
template <typename Fn>
void ForEachTap(const WindowGeometry& g, const HostTensor& input, const Shape& out, int64_t kh,
                int64_t kw, int64_t p, Fn fn) {
  const Shape& in = input.shape();
  const Position at = PositionOf(out, p);
  for (int64_t ky = 0; ky < kh; ++ky) {
    const int64_t iy = g.h.At(at.y, ky);
    for (int64_t kx = 0; kx < kw; ++kx) {
      const int64_t ix = g.w.At(at.x, kx);
      const bool inside = iy >= 0 && iy < in[1] && ix >= 0 && ix < in[2];
      fn(ky * kw + kx, inside ? input.data<float>() + Nhwc(in, at.n, iy, ix, 0) : nullptr);
    }
  }
}

/// conv2d: one group, taps over all input channels.
void AccumulateConv(const WindowGeometry& g, const Shape& out, int64_t kh, int64_t kw,
                    const HostTensor& input, InputGram& gram, int threads) {
  const int64_t channels = input.shape()[3];
  const std::vector<int64_t> positions = SampledPositions(out[0] * out[1] * out[2]);
  Patches patches{gram.dim, static_cast<int64_t>(positions.size()), {}};
  patches.columns.resize(static_cast<size_t>(gram.dim * patches.rows));
  for (int64_t r = 0; r < patches.rows; ++r)
    ForEachTap(g, input, out, kh, kw, positions[static_cast<size_t>(r)],
               [&](int64_t tap, const float* pixel) {
                 for (int64_t c = 0; c < channels; ++c)
                   patches.column(tap * channels + c)[r] = pixel ? pixel[c] : 0.0f;
               });
  AddPatches(patches, gram, threads);
}

/// depthwise: a group per input channel, taps over the window only. A
/// position's taps of many channels are contiguous in the input, so the
/// sums run over channels innermost, kChannels at a time (vector lanes):
/// the taps of kPositions positions are gathered, then for each pair of
/// taps a ≤ b the products x_a·x_b of those positions are summed in float
/// registers, in order, and the batch's sum added to the double sums — where
/// a matrix product per channel would be mostly overhead (its matrices are
/// 9×9 or 25×25), and a load and store of the sums per position was memory
/// bound. Each channel's sums are made in position order, whichever thread
/// makes its block, so they do not depend on the threads.
void AccumulateDepthwise(const WindowGeometry& g, const Shape& out, int64_t kh, int64_t kw,
                         const HostTensor& input, InputGram& gram, int threads) {
  constexpr int64_t kChannels = 16, kPositions = 16;
  const std::vector<int64_t> positions = SampledPositions(out[0] * out[1] * out[2]);
  const auto count = static_cast<int64_t>(positions.size());
  const int64_t dim = gram.dim, pairs = dim * (dim + 1) / 2;
  ParallelFor((gram.groups + kChannels - 1) / kChannels, threads, [&](int64_t block) {
    const int64_t c0 = block * kChannels, width = std::min(kChannels, gram.groups - c0);
    std::vector<double> sums(static_cast<size_t>(pairs * kChannels), 0.0);  // [pair][channel]
    // [position][tap][channel]; lanes past `width` stay 0.
    std::vector<float> taps(static_cast<size_t>(kPositions * dim * kChannels), 0.0f);
    for (int64_t p0 = 0; p0 < count; p0 += kPositions) {
      const int64_t batch = std::min(kPositions, count - p0);
      for (int64_t q = 0; q < batch; ++q)
        ForEachTap(g, input, out, kh, kw, positions[static_cast<size_t>(p0 + q)],
                   [&](int64_t tap, const float* pixel) {
                     float* t = taps.data() + (q * dim + tap) * kChannels;
                     for (int64_t c = 0; c < width; ++c) t[c] = pixel ? pixel[c0 + c] : 0.0f;
                   });
      double* s = sums.data();
      for (int64_t a = 0; a < dim; ++a)
        for (int64_t b = a; b < dim; ++b, s += kChannels) {
          float acc[kChannels] = {};
          for (int64_t q = 0; q < batch; ++q) {
            const float* ta = taps.data() + (q * dim + a) * kChannels;
            const float* tb = taps.data() + (q * dim + b) * kChannels;
            for (int64_t c = 0; c < kChannels; ++c) acc[c] += ta[c] * tb[c];
          }
          for (int64_t c = 0; c < kChannels; ++c) s[c] += static_cast<double>(acc[c]);
        }
    }
    for (int64_t c = 0; c < width; ++c) {
      double* m = gram.values.data() + (c0 + c) * dim * dim;
      const double* s = sums.data() + c;
      for (int64_t a = 0; a < dim; ++a)
        for (int64_t b = a; b < dim; ++b, s += kChannels) {
          m[a * dim + b] += *s;
          if (b != a) m[b * dim + a] += *s;
        }
    }
  });
}

}  // namespace

void AccumulateInputGram(const Graph& graph, const Node& node, const HostTensor& input,
                         InputGram& gram, int threads) {
  const Shape& weights = graph.tensor(node.inputs[1]).shape;
  if (gram.dim == 0) {
    const bool depthwise = node.op == OpKind::kDepthwiseConv2D;
    if (node.op == OpKind::kFullyConnected)
      gram.dim = weights[1];
    else
      gram.dim = weights[1] * weights[2] * (depthwise ? 1 : weights[3]);
    gram.groups = depthwise ? input.shape()[3] : 1;
    if (depthwise) gram.values.assign(static_cast<size_t>(gram.groups * gram.dim * gram.dim), 0.0);
  }
  if (node.op == OpKind::kFullyConnected) {
    AccumulateFullyConnected(input, gram.dim, gram, threads);
    return;
  }
  const Shape& out = graph.tensor(node.outputs[0]).shape;
  const WindowSteps steps = WindowStepsOf(node.op, node.attrs);
  const WindowGeometry g =
      WindowOf(steps.strides, steps.dilations, input.shape(), out, weights[1], weights[2]);
  if (node.op == OpKind::kDepthwiseConv2D)
    AccumulateDepthwise(g, out, weights[1], weights[2], input, gram, threads);
  else
    AccumulateConv(g, out, weights[1], weights[2], input, gram, threads);
}

std::vector<double> InputGram::Matrix(int64_t g) const {
  if (!values.empty()) return {group(g), group(g) + dim * dim};
  std::vector<double> m(static_cast<size_t>(dim * dim), 0.0);
  const auto n = static_cast<Eigen::Index>(dim);
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMajor v =
      Eigen::Map<const RowMajorF>(patches.data(), n, static_cast<Eigen::Index>(samples))
          .cast<double>();
  Eigen::Map<RowMajor>(m.data(), n, n).noalias() = v * v.transpose();
  return m;
}

RoundingFactor InputGram::Factor(int64_t g) const {
  if (!values.empty()) return RoundingFactor::OfGram(group(g), dim);
  if (samples > 0) return RoundingFactor::OfPatches(patches.data(), dim, samples);
  const std::vector<double> zeros = Matrix(g);  // nothing seen: R is the damping's
  return RoundingFactor::OfGram(zeros.data(), dim);
}

namespace {

/// Frees what the factors were made from.
void Release(InputGram& gram) {
  std::vector<double>().swap(gram.values);
  std::vector<float>().swap(gram.patches);
  gram.samples = 0;
}

/// Factors every group on up to `threads` threads, then releases the matrices.
void FactorAll(InputGram& gram, int threads) {
  std::vector<RoundingFactor> factors(static_cast<size_t>(gram.groups));
  ParallelFor(gram.groups, threads,
              [&](int64_t g) { factors[static_cast<size_t>(g)] = gram.Factor(g); });
  gram.factors = std::move(factors);
  Release(gram);
}

}  // namespace

void FactorGrams(std::map<NodeId, InputGram>& grams, int threads) {
  struct Item {
    InputGram* gram;
    int64_t group;
  };
  std::vector<Item> items;
  for (auto& [node, gram] : grams) {
    if (!gram.factors.empty()) continue;  // factored already
    gram.factors.assign(static_cast<size_t>(gram.groups), {});
    for (int64_t g = 0; g < gram.groups; ++g) items.push_back({&gram, g});
  }
  // The largest first (a whole factor costs dim³), so that no thread is
  // left with a large one at the end.
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.gram->dim > b.gram->dim; });
  ParallelFor(static_cast<int64_t>(items.size()), threads, [&](int64_t i) {
    const Item& item = items[static_cast<size_t>(i)];
    InputGram& gram = *item.gram;
    gram.factors[static_cast<size_t>(item.group)] = gram.Factor(item.group);
    // A one-group matrix is this item's alone: release it now rather than
    // hold every matrix and every factor at once.
    if (gram.groups == 1) Release(gram);
  });
  for (auto& entry : grams) Release(entry.second);
}

InputGramCollector::InputGramCollector(const Graph& graph, int threads, int64_t factor_after)
    : graph_(graph), threads_(threads), factor_after_(factor_after) {
  for (size_t k = 0; k < graph.nodes.size(); ++k)
    if (HasGram(graph, graph.nodes[k]))
      readers_[graph.nodes[k].inputs[0]].push_back(static_cast<NodeId>(k));
  if (factor_after > 0 && ThreadCount(threads) > 1) {
    try {
      worker_ = std::make_unique<SerialWorker>();
    } catch (const std::system_error&) {  // no thread to be had: factored on the spot
    }
  }
}

Status InputGramCollector::Observe(TensorId t, const HostTensor& value) {
  auto it = readers_.find(t);
  if (it == readers_.end() || value.dtype() != DType::kF32) return OkStatus();
  for (NodeId k : it->second) {
    InputGram& gram = grams_[k];
    AccumulateInputGram(graph_, graph_.node(k), value, gram, threads_);
    if (factor_after_ == 0 || ++runs_[k] != factor_after_) continue;
    if (gram.groups == 1 && worker_)
      worker_->Post([&gram] { FactorAll(gram, 1); });  // the run no longer touches it
    else
      FactorAll(gram, threads_);
  }
  return OkStatus();
}

std::map<NodeId, InputGram> InputGramCollector::Take() && {
  if (worker_) worker_->Wait();
  return std::move(grams_);
}

}  // namespace opuc::quant
