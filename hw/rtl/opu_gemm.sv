// Gemm: one kernel tap over a tile. Pixel by pixel, one a cycle: read the
// pixel's feature-map row; its sums leave the array's pipeline IPA_STAGES
// cycles later (opu_ipa), when the accumulator entry, read a cycle before,
// is there too; then write back start + sum (x 256 for the high byte of an
// i16), where start is the entry (accumulate), the param row's biases, or
// zero. The weight and param rows are read once, from the instruction's
// fields. A pixel's entry is written D = IPA_STAGES + 1 cycles after its
// address; each Gemm writes distinct entries, and the next starts after its
// last write.
`include "opu_field.svh"
module opu_gemm
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  opu_pkg::word_t                 insn_i,       // held for the whole instruction
  output logic                  done_o,
  output logic [31:0]           fm_raddr_o,
  input  logic [opu_pkg::BEAT_BITS-1:0]  fm_rdata_i,
  output logic [31:0]           wgt_raddr_o,
  input  logic [opu_pkg::WGT_BITS-1:0]   wgt_rdata_i,
  output logic [31:0]           param_raddr_o,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_rdata_i,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] acc_wdata_o,
  output logic [63:0]           issues_o
);
  localparam int unsigned D = opu_pkg::IPA_STAGES + 1;
  logic        running_q;
  logic [31:0] oy_q, ox_q, row_fm_q, fm_q, entry_q;
  // A pixel's place in the pipeline: valid_q[k] and entry_q_d[k] are those
  // of the pixel whose address was issued k + 1 cycles ago.
  logic [D-1:0] valid_q;
  logic [32*D-1:0] entry_d_q;
  logic [31:0] rows, cols, row_step, stride_x;
  logic [1:0]  init;
  logic [32*opu_pkg::CO-1:0] sums;

  assign rows = 32'(`OPU_FIELD(insn_i, GEMM_OUT_ROWS));
  assign cols = 32'(`OPU_FIELD(insn_i, GEMM_OUT_COLS));
  assign row_step = 32'(`OPU_FIELD(insn_i, GEMM_STRIDE_Y)) * 32'(`OPU_FIELD(insn_i, GEMM_FM_PITCH));
  assign stride_x = 32'(`OPU_FIELD(insn_i, GEMM_STRIDE_X));
  assign init = `OPU_FIELD(insn_i, GEMM_INIT);
  assign wgt_raddr_o = 32'(`OPU_FIELD(insn_i, GEMM_WGT_ADDR));
  assign param_raddr_o = 32'(`OPU_FIELD(insn_i, GEMM_PARAM_ADDR));
  assign fm_raddr_o = fm_q;
  // The entry is read the cycle before the pixel's sums arrive.
  assign acc_raddr_o = entry_d_q[32*(D-2) +: 32];

  opu_ipa u_ipa (
    .clk_i, .valid_i(valid_q[0]), .fm_i(fm_rdata_i), .weights_i(wgt_rdata_i),
    .fm_unsigned_i(`OPU_FIELD(insn_i, GEMM_FM_UNSIGNED)), .sums_o(sums)
  );

  always_comb begin
    acc_we_o = valid_q[D-1];
    acc_waddr_o = entry_d_q[32*(D-1) +: 32];
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic signed [47:0] start, product;
      start = init == opuc_isa_pkg::GEMM_INIT_ACCUMULATE ?
                  acc_rdata_i[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] :
              init == opuc_isa_pkg::GEMM_INIT_FROM_BIAS ?
                  {{16{param_rdata_i[64*j+31]}}, param_rdata_i[64*j +: 32]} : '0;
      product = {{16{sums[32*j+31]}}, sums[32*j +: 32]};
      if (`OPU_FIELD(insn_i, GEMM_HIGH_BYTE)) product = product <<< 8;
      acc_wdata_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = start + product;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {running_q, done_o} <= '0;
      {oy_q, ox_q, row_fm_q, fm_q, entry_q} <= '0;
      valid_q <= '0;
      entry_d_q <= '0;
      issues_o <= '0;
    end else begin
      done_o <= 1'b0;
      valid_q <= {valid_q[D-2:0], running_q};
      entry_d_q <= {entry_d_q[32*(D-1)-1:0], entry_q};
      if (start_i) begin
        running_q <= rows != 0 && cols != 0;
        done_o <= rows == 0 || cols == 0;
        {oy_q, ox_q} <= '0;
        row_fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        fm_q <= 32'(`OPU_FIELD(insn_i, GEMM_FM_ADDR));
        entry_q <= 32'(`OPU_FIELD(insn_i, GEMM_ACC_ADDR));
      end else if (running_q) begin
        issues_o <= issues_o + 1;
        entry_q <= entry_q + 1;
        if (ox_q + 1 < cols) begin
          ox_q <= ox_q + 1;
          fm_q <= fm_q + stride_x;
        end else begin
          ox_q <= '0;
          oy_q <= oy_q + 1;
          row_fm_q <= row_fm_q + row_step;
          fm_q <= row_fm_q + row_step;
          if (oy_q + 1 == rows) running_q <= 1'b0;
        end
      end
      // Done as the last pixel is written: nothing behind it.
      if (valid_q[D-1] && !running_q && valid_q[D-2:0] == '0) done_o <= 1'b1;
    end
  end
endmodule
