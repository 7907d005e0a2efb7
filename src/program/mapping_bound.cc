//===- src/program/mapping_bound.cc - The limit of opuc's own mapping ----===//
#include "opuc/program/mapping_bound.h"

#include <algorithm>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "opuc/ir/macs.h"
#include "opuc/ir/op_attrs.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/program/physical_bound.h"
#include "support/format.h"

namespace opuc {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

/// The array cycles of one node with the mapping's channel rounding; a
/// conv2d over a `fold`ed input is a 1x1 one over its folded channels (with
/// pixel pairs, Co/2 channels of two pixels a block), one to a `packed`
/// output a conv over packed rows (codegen/packed_rows.h), a depthwise one
/// over a `doubled` input two output pixels an entry (codegen/doubled_maps.h),
/// a 1x1 one of at most L / 2 channels two a cycle (codegen/dense_pairs.h).
int64_t ArrayCycles(const Graph& graph, const Node& node, const HwConfig& hw, const InputFold* fold,
                    bool packed, bool doubled) {
  if (node.inputs.size() < 2 || node.outputs.empty()) return 0;
  const Tensor& in = graph.tensor(node.inputs[0]);
  const Shape& w = graph.tensor(node.inputs[1]).shape;
  const Shape& out = graph.tensor(node.outputs[0]).shape;
  const int64_t L = hw.array.input_channels, Co = hw.array.output_channels;
  // An i16 input: one pass where the array reads it whole (a feature-map
  // buffer of two banks; a depthwise window at most 4 taps wide), else two.
  const bool i16 = in.dtype == DType::kI16, whole = i16 && FeatureMapPairs(hw);
  const int64_t planes = i16 && !whole ? 2 : 1;
  switch (node.op) {
    case OpKind::kConv2D:  // out [N,Ho,Wo,Co], w [Co,Kh,Kw,Ci]
      if (out.size() != 4 || w.size() != 4) break;
      if (fold) {
        // Of at most L / 2 folded channels, a pixel a fold: two output
        // pixels a cycle (codegen's dense pairs over the folded input).
        if (fold->pixels == 1 && fold->folded_channels() <= L / 2 && !i16 && FeatureMapPairs(hw))
          return out[0] * out[1] * CeilDiv(out[2], 2) * CeilDiv(out[3], Co);
        const int64_t pixels = fold->pixels, rows = std::max<int64_t>(1, Co / pixels);
        return out[0] * out[1] * CeilDiv(out[2], pixels) * CeilDiv(fold->folded_channels(), L) *
               CeilDiv(out[3], rows) * planes;
      }
      if (packed && L > Co) {
        const int64_t p = L / Co;  // input pixels a packed one
        return out[0] * out[1] * (out[2] / Co) * w[1] * (Co / p + 2 * CeilDiv(w[2] / 2, p));
      }
      // A 1x1 product of at most L / 2 channels of bytes at stride 1: output
      // pixels in pairs, one a cycle for two (codegen's dense pairs).
      if (w[1] * w[2] == 1 && w[3] <= L / 2 && !i16 && FeatureMapPairs(hw) &&
          Conv2DAttrs::Of(node.attrs).strides[1] == 1)
        return out[0] * out[1] * CeilDiv(out[2], 2) * CeilDiv(out[3], Co);
      return out[0] * out[1] * out[2] * w[1] * w[2] * CeilDiv(w[3], L) * CeilDiv(out[3], Co) *
             planes;
    case OpKind::kDepthwiseConv2D: {  // out [N,Ho,Wo,C*M], w [1,Kh,Kw,C*M]
      if (out.size() != 4 || w.size() != 4) break;
      // With the array's depthwise mode, a Gemm a window of kernel rows,
      // 8 lanes apart (codegen/depthwise_window.h, which this follows);
      // else the diagonal mapping, a tap a Gemm.
      const auto a = DepthwiseConv2DAttrs::Of(node.attrs);
      const int64_t rows = std::min({hw.ipa.depthwise_window, int64_t{8}, (L - w[2]) / 8 + 1});
      const bool windowed =
          rows > 0 && w[1] * w[2] > 1 && a.dilations == Pair{1, 1} && a.strides[1] <= w[2] &&
          (a.depth_multiplier == 1 || a.depth_multiplier == 2) && Co % a.depth_multiplier == 0 &&
          w[2] <= std::min<int64_t>(8, L) && L <= 128;
      const int64_t gemms = windowed ? CeilDiv(w[1], std::min(w[1], rows)) : w[1] * w[2];
      const int64_t passes = i16 && (!whole || (windowed && w[2] > kI16WindowTaps)) ? 2 : 1;
      // A window fed from line buffers takes every input pixel of the rows
      // it walks, a pixel a cycle, or a pair at stride 2 with an odd width
      // where the feature-map buffer has pairs: a stride-2 output pixel
      // costs 2 (or 4) cycles however the map is tiled.
      int64_t walk = 1;
      if (windowed && hw.ipa.depthwise_line > 0) {
        const bool pairs = a.strides[1] == 2 && w[2] % 2 == 1 && FeatureMapPairs(hw) &&
                           !(i16 && passes == 1);  // an i16 read whole: no pairs
        walk = a.strides[0] * a.strides[1] / (pairs ? 2 : 1);
        // Over a doubled map, a stride-1 product of Co/2 channels runs as a
        // window of kw + 2 at stride 2: two output pixels an entry of Co
        // channels, reading a pair a cycle (codegen's PairsDepthwise).
        if (doubled && FeatureMapPairs(hw) && 2 * out[3] == Co && a.strides == Pair{1, 1})
          return out[0] * out[1] * CeilDiv(out[2], 2) * gemms * passes;
        // At stride 1, a kernel whose rows fit half the lanes (8 apart, or
        // a 5x5's 6 apart: packed rows) takes output pixels in pairs, one a
        // cycle for two (codegen's window pairs).
        const bool rows_fit =
            (w[1] * 8 <= L / 2 && w[2] + 1 <= 8) || (w[1] == 5 && w[2] == 5 && 5 * 6 <= L / 2);
        if (a.strides == Pair{1, 1} && FeatureMapPairs(hw) && !i16 && gemms == 1 && rows_fit)
          return out[0] * out[1] * CeilDiv(out[2], 2) * CeilDiv(out[3], Co);
      }
      return out[0] * out[1] * out[2] * gemms * walk * CeilDiv(out[3], Co) * passes;
    }
    case OpKind::kTransposeConv2D: {  // w [Co,Kh,Kw,Ci]: an output pixel takes at least
      if (out.size() != 4 || w.size() != 4) break;  // floor(K / s) taps along each axis
      const Pair s = TransposeConv2DAttrs::Of(node.attrs).strides;
      if (packed && L > Co &&
          s[1] > 0)  // as phases: Co / s input pixels an entry, L / Co a lane block
        return out[0] * out[1] * (out[2] / Co) * std::max<int64_t>(1, Co / s[1] / (L / Co));
      return out[0] * out[1] * out[2] * (w[1] / s[0]) * (w[2] / s[1]) * CeilDiv(w[3], L) *
             CeilDiv(out[3], Co) * planes;
    }
    case OpKind::kFullyConnected: {  // w [Co,Ci]; rows = elements / Ci
      if (w.size() != 2 || w[1] <= 0) break;
      int64_t elements = 1;
      for (int64_t d : in.shape) elements *= d;
      return elements / w[1] * CeilDiv(w[1], L) * CeilDiv(w[0], Co) * planes;
    }
    default: break;
  }
  return 0;
}

/// The bytes of the constant blob the step's loads read, each byte once.
Expected<int64_t> ConstantBytesRead(const Program& program, const ProgramStep& step) {
  const OpuBufferUnits units = BufferUnits(program.hw());
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (size_t i = 0; i < step.word_count; ++i) {
    Expected<isa::Instruction> insn = isa::Decode(step.word(i));
    if (!insn.ok()) return insn.status().WithContext(Cat("word ", i));
    const auto* load = std::get_if<isa::LoadInsn>(&*insn);
    if (!load || load->rows == 0 || load->cols == 0 || load->dram_addr >= program.constant_bytes())
      continue;
    const int64_t unit = units.LoadUnitBytes(*load);
    for (int64_t r = 0; r < load->rows; ++r) {
      const int64_t begin = load->dram_addr + r * load->dram_stride;
      ranges.emplace_back(begin, begin + load->cols * unit);
    }
  }
  std::sort(ranges.begin(), ranges.end());
  int64_t bytes = 0, covered = 0;  // covered: the end of what is counted so far
  for (const auto& [begin, end] : ranges) {
    if (end <= covered) continue;
    bytes += end - std::max(begin, covered);
    covered = end;
  }
  return bytes;
}

/// The taps a Pool reads: each window's part inside the source, as the
/// stage walks it (one tap a cycle).
int64_t PoolTaps(const isa::PoolInsn& p) {
  const auto inside = [](int64_t outs, int64_t stride, int64_t pad, int64_t size, int64_t src) {
    int64_t sum = 0;
    for (int64_t o = 0; o < outs; ++o) {
      const int64_t start = o * stride - pad;
      sum += std::max<int64_t>(0, std::min(src, start + size) - std::max<int64_t>(0, start));
    }
    return sum;
  };
  return inside(p.out_rows, p.stride_y, p.pad_y, p.size_y, p.src_rows) *
         inside(p.out_cols, p.stride_x, p.pad_x, p.size_x, p.src_cols);
}

}  // namespace

Expected<int64_t> OutputPathCycles(const ProgramStep& step, const OpuBufferUnits& units) {
  int64_t post = 0, store = 0;
  int64_t run_addr = -1, run_count = -1;  // the entries of the stages before
  // The chain those stages make (opu_compute_engine.sv's `agree`): at most
  // kChainStages of them, one ResAdd (one residual row an entry), one
  // Table, and the param-reading ones on one param row. A stage the chain
  // cannot take starts another pass over the same entries.
  constexpr int kChainStages = 3;
  int chain_stages = 0;
  bool chain_res = false, chain_table = false;
  int64_t chain_param = -1;
  // A pass of one Output, Clamp or PRelu over an even count from an even
  // entry in banks 0 and 1 takes two entries a cycle (a dual pass, docs/rtl.md):
  // what it saved, until a stage other than a Table joins it or a pool ends it.
  int64_t dual_saved = 0;
  const auto undo_dual = [&] {
    post += dual_saved;
    dual_saved = 0;
  };
  for (size_t i = 0; i < step.word_count; ++i) {
    Expected<isa::Instruction> insn = isa::Decode(step.word(i));
    if (!insn.ok()) return insn.status().WithContext(Cat("word ", i));
    const auto entries = [&](int64_t addr, int64_t count, bool res, bool table, int64_t param) {
      const bool joins = addr == run_addr && count == run_count && chain_stages < kChainStages &&
                         !(res && chain_res) && !(table && chain_table) &&
                         !(param >= 0 && chain_param >= 0 && param != chain_param);
      // A Table after the pass's one stage keeps it dual (a dual chain).
      if (joins && !(table && chain_stages == 1)) undo_dual();
      if (!joins) {
        const bool dual = !res && !table && addr % 2 == 0 && count % 2 == 0 &&
                          addr + count <= units.AccSumsBank();
        dual_saved = dual ? count / 2 : 0;
        post += count - dual_saved;
        chain_stages = 0;
        chain_res = chain_table = false;
        chain_param = -1;
      }
      ++chain_stages;
      chain_res = chain_res || res;
      chain_table = chain_table || table;
      if (param >= 0) chain_param = param;
      run_addr = addr;
      run_count = count;
    };
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, isa::OutputInsn> || std::is_same_v<T, isa::PReluInsn>) {
            entries(x.acc_addr, x.count, false, false, x.param_addr);
          } else if constexpr (std::is_same_v<T, isa::ClampInsn> ||
                               std::is_same_v<T, isa::TableInsn> ||
                               std::is_same_v<T, isa::ResAddInsn>) {
            entries(x.acc_addr, x.count, std::is_same_v<T, isa::ResAddInsn>,
                    std::is_same_v<T, isa::TableInsn>, -1);
          } else if constexpr (std::is_same_v<T, isa::PoolInsn>) {
            // A tail reads no entry; 2x2 windows write their pooled ones
            // beside the pass's writes (hw/rtl/opu_pool_tail.sv).
            if (PoolEndsPass(x, run_addr, run_count)) undo_dual();
            dual_saved = 0;
            if (!PoolEndsPass(x, run_addr, run_count)) post += PoolTaps(x);
            run_addr = -1;
          } else if constexpr (std::is_same_v<T, isa::AverageInsn>) {
            dual_saved = 0;
            post += x.rows * x.cols;
            run_addr = -1;
          } else if constexpr (std::is_same_v<T, isa::StoreInsn>) {
            store += StoreIssueCycles(x, units);
          } else if constexpr (std::is_same_v<T, isa::GemmInsn>) {
            run_addr = -1;  // new entries
          }
        },
        *insn);
  }
  return std::max(post, store);
}

Expected<MappingBound> MappingBoundOfStep(const Program& program, const ProgramStep& step,
                                          const StepUsage& usage) {
  MappingBound bound;
  if (step.kind != StepKind::kOpu) return bound;
  const Graph& graph = program.graph();
  const InputFold* fold = nullptr;  // codegen folds the input of a step's one conv2d
  for (TensorId t : step.inputs)
    if (const ActivationLayout* layout = program.Find(t); layout && layout->fold)
      fold = &*layout->fold;
  bool packed =
      false;  // codegen packs the rows of a step's one inner product (its output's layout)
  for (TensorId t : step.outputs)
    if (const ActivationLayout* layout = program.Find(t)) packed = packed || layout->pack > 1;
  for (NodeId n : step.nodes) {
    const Node& node = graph.node(n);
    // What the node reads from DRAM: its input, or a zero pad's that the
    // loads fold in.
    TensorId read = node.inputs.empty() ? kNoTensor : node.inputs[0];
    for (NodeId p : step.nodes)
      if (const Node& pad = graph.node(p); pad.op == OpKind::kPad && pad.outputs[0] == read)
        read = pad.inputs[0];
    const ActivationLayout* in = read == kNoTensor ? nullptr : program.Find(read);
    bound.array_cycles +=
        ArrayCycles(graph, node, program.hw(), fold, packed, in != nullptr && in->doubled);
  }
  for (TensorId t : step.inputs)
    if (const ActivationLayout* layout = program.Find(t)) bound.dram_bytes += layout->bytes();
  OPUC_ASSIGN_OR_RETURN(int64_t constants, ConstantBytesRead(program, step));
  bound.dram_bytes += constants + usage.store_beat_bytes;
  bound.dram_cycles = DramCycles(bound.dram_bytes, DramBytesPerCycle(program.hw()));
  OPUC_ASSIGN_OR_RETURN(bound.output_cycles, OutputPathCycles(step, BufferUnits(program.hw())));
  for (size_t i = 0; i < step.word_count; ++i) {
    Expected<isa::Instruction> insn = isa::Decode(step.word(i));
    if (!insn.ok()) return insn.status().WithContext(Cat("word ", i));
    if (const auto* gemm = std::get_if<isa::GemmInsn>(&*insn))
      bound.gemm_cycles += GemmBackToBackCycles(*gemm, program.hw().ipa.depthwise_line);
  }
  return bound;
}

}  // namespace opuc
