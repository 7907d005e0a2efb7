// The post-processing stages that rewrite accumulator entries in place:
// Output, Clamp, PRelu, Table, ResAdd and Average. Entry by entry, one a
// cycle: read the entry (and, for ResAdd, its residual's feature-map row),
// and a cycle later write what the instruction's stage makes of it. An i16
// residual has two rows (high bytes, then low bytes `count` rows on): its
// entries take two cycles, the first reading the high row. A Table
// first copies its table from the feature map into the table's registers.
// Average walks rows x cols entries `pitch` apart; the others `count`
// consecutive entries.
`include "opu_field.svh"
module opu_post
  import opu_pkg::*;
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  word_t                 insn_i,       // held for the whole instruction
  output logic                  done_o,
  output logic [31:0]           fm_raddr_o,
  input  logic [BEAT_BITS-1:0]  fm_rdata_i,
  output logic [31:0]           param_raddr_o,
  input  logic [PARAM_BITS-1:0] param_rdata_i,
  output logic [31:0]           acc_raddr_o,
  input  logic [ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  acc_we_o,
  output logic [31:0]           acc_waddr_o,
  output logic [ENTRY_BITS-1:0] acc_wdata_o,
  output logic [63:0]           entries_o
);
  localparam int unsigned TABLE_ROWS = (2 * 257 + L - 1) / L;
  logic [3:0]  op;
  logic        filling_q, fill_s1_q, running_q, s1_valid_q;
  logic        res_i16, low_q;          // an i16 residual; reading its low row
  logic        advance;                 // this cycle's entry is read in full
  logic [BEAT_BITS-1:0] high_row_q;     // an i16 residual's high row
  logic [31:0] fill_q, fill_s1_row_q;
  logic [31:0] r_q, c_q, row_entry_q, entry_q, res_q, s1_entry_q;
  logic [31:0] rows, cols, pitch, first_entry;
  logic [ENTRY_BITS-1:0] out_stage, compared, looked_up, added, averaged;

  assign op = `OPU_FIELD(insn_i, OPCODE);
  always_comb begin
    rows = 32'd1;
    pitch = '0;
    unique case (op)
      OP_OUTPUT: begin
        cols = 32'(`OPU_FIELD(insn_i, OUTPUT_COUNT));
        first_entry = 32'(`OPU_FIELD(insn_i, OUTPUT_ACC_ADDR));
        param_raddr_o = 32'(`OPU_FIELD(insn_i, OUTPUT_PARAM_ADDR));
      end
      OP_CLAMP: begin
        cols = 32'(`OPU_FIELD(insn_i, CLAMP_COUNT));
        first_entry = 32'(`OPU_FIELD(insn_i, CLAMP_ACC_ADDR));
        param_raddr_o = '0;
      end
      OP_PRELU: begin
        cols = 32'(`OPU_FIELD(insn_i, PRELU_COUNT));
        first_entry = 32'(`OPU_FIELD(insn_i, PRELU_ACC_ADDR));
        param_raddr_o = 32'(`OPU_FIELD(insn_i, PRELU_PARAM_ADDR));
      end
      OP_TABLE: begin
        cols = 32'(`OPU_FIELD(insn_i, TABLE_COUNT));
        first_entry = 32'(`OPU_FIELD(insn_i, TABLE_ACC_ADDR));
        param_raddr_o = '0;
      end
      OP_RESADD: begin
        cols = 32'(`OPU_FIELD(insn_i, RESADD_COUNT));
        first_entry = 32'(`OPU_FIELD(insn_i, RESADD_ACC_ADDR));
        param_raddr_o = '0;
      end
      default: begin  // OP_AVERAGE
        rows = 32'(`OPU_FIELD(insn_i, AVERAGE_ROWS));
        cols = 32'(`OPU_FIELD(insn_i, AVERAGE_COLS));
        pitch = 32'(`OPU_FIELD(insn_i, AVERAGE_PITCH));
        first_entry = 32'(`OPU_FIELD(insn_i, AVERAGE_ACC_ADDR));
        param_raddr_o = '0;
      end
    endcase
  end

  assign res_i16 = op == OP_RESADD && `OPU_FIELD(insn_i, RESADD_RES_FORMAT) == 2'd2;
  assign advance = running_q && (!res_i16 || low_q);
  // An i16's low row: `count` rows on, or the next row of a broadcast one.
  assign fm_raddr_o = filling_q ? 32'(`OPU_FIELD(insn_i, TABLE_TABLE_ADDR)) + fill_q
                      : low_q   ? res_q + (`OPU_FIELD(insn_i, RESADD_BROADCAST) ? 32'd1 : cols)
                                : res_q;
  assign acc_raddr_o = entry_q;

  // Only the stage whose result is written this cycle computes.
  opu_output_stage u_output (
    .enable_i(s1_valid_q && op == OP_OUTPUT), .entry_i(acc_rdata_i), .param_i(param_rdata_i),
    .lo_i(`OPU_FIELD(insn_i, OUTPUT_LO)), .hi_i(`OPU_FIELD(insn_i, OUTPUT_HI)),
    .entry_o(out_stage)
  );
  opu_compare u_compare (
    .enable_i(s1_valid_q && (op == OP_CLAMP || op == OP_PRELU)), .entry_i(acc_rdata_i), .prelu_i(op == OP_PRELU),
    .shift_i(op == OP_PRELU ? 8'(signed'(`OPU_FIELD(insn_i, PRELU_POS_SHIFT)))
                            : 8'(signed'(`OPU_FIELD(insn_i, CLAMP_SHIFT)))),
    .neg_shift_i(8'(signed'(`OPU_FIELD(insn_i, PRELU_NEG_SHIFT)))),
    .param_i(param_rdata_i),
    .lo_i(op == OP_PRELU ? `OPU_FIELD(insn_i, PRELU_LO) : `OPU_FIELD(insn_i, CLAMP_LO)),
    .hi_i(op == OP_PRELU ? `OPU_FIELD(insn_i, PRELU_HI) : `OPU_FIELD(insn_i, CLAMP_HI)),
    .entry_o(compared)
  );
  opu_table u_table (
    .clk_i, .fill_i(fill_s1_q), .fill_row_i(fill_s1_row_q), .row_i(fm_rdata_i),
    .format_i(`OPU_FIELD(insn_i, TABLE_IN_FORMAT)), .enable_i(s1_valid_q && op == OP_TABLE),
    .entry_i(acc_rdata_i), .entry_o(looked_up)
  );
  opu_residual_add u_residual (
    .enable_i(s1_valid_q && op == OP_RESADD), .entry_i(acc_rdata_i), .row_i(fm_rdata_i),
    .high_row_i(high_row_q),
    .res_lane_i(`OPU_FIELD(insn_i, RESADD_RES_LANE)),
    .res_lanes_i(`OPU_FIELD(insn_i, RESADD_RES_LANES)),
    .res_format_i(`OPU_FIELD(insn_i, RESADD_RES_FORMAT)),
    .multiply_i(`OPU_FIELD(insn_i, RESADD_MULTIPLY)),
    .acc_shift_i(`OPU_FIELD(insn_i, RESADD_ACC_SHIFT)),
    .res_shift_i(`OPU_FIELD(insn_i, RESADD_RES_SHIFT)),
    .out_shift_i(`OPU_FIELD(insn_i, RESADD_OUT_SHIFT)),
    .lo_i(`OPU_FIELD(insn_i, RESADD_LO)), .hi_i(`OPU_FIELD(insn_i, RESADD_HI)),
    .entry_o(added)
  );
  opu_average u_average (
    .enable_i(s1_valid_q && op == OP_AVERAGE), .entry_i(acc_rdata_i), .count_i(`OPU_FIELD(insn_i, AVERAGE_COUNT)),
    .shift_i(`OPU_FIELD(insn_i, AVERAGE_SHIFT)),
    .lo_i(`OPU_FIELD(insn_i, AVERAGE_LO)), .hi_i(`OPU_FIELD(insn_i, AVERAGE_HI)),
    .entry_o(averaged)
  );

  always_comb begin
    acc_we_o = s1_valid_q;
    acc_waddr_o = s1_entry_q;
    unique case (op)
      OP_OUTPUT: acc_wdata_o = out_stage;
      OP_CLAMP, OP_PRELU: acc_wdata_o = compared;
      OP_TABLE: acc_wdata_o = looked_up;
      OP_RESADD: acc_wdata_o = added;
      default: acc_wdata_o = averaged;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {filling_q, fill_s1_q, running_q, s1_valid_q, done_o, low_q} <= '0;
      high_row_q <= '0;
      {fill_q, fill_s1_row_q, r_q, c_q, row_entry_q, entry_q, res_q, s1_entry_q} <= '0;
      entries_o <= '0;
    end else begin
      done_o <= 1'b0;
      s1_valid_q <= advance;
      low_q <= running_q && res_i16 && !low_q;
      if (low_q) high_row_q <= fm_rdata_i;  // the high row, read a cycle ago
      s1_entry_q <= entry_q;
      fill_s1_q <= filling_q;
      fill_s1_row_q <= fill_q;
      if (start_i) begin
        filling_q <= op == OP_TABLE;
        fill_q <= '0;
        running_q <= op != OP_TABLE && rows != 0 && cols != 0;
        done_o <= op != OP_TABLE && (rows == 0 || cols == 0);
        {r_q, c_q} <= '0;
        row_entry_q <= first_entry;
        entry_q <= first_entry;
        res_q <= 32'(`OPU_FIELD(insn_i, RESADD_RES_ADDR));
      end else if (filling_q) begin
        fill_q <= fill_q + 1;
        if (fill_q + 1 == TABLE_ROWS) begin
          filling_q <= 1'b0;
          running_q <= cols != 0;
          done_o <= cols == 0;
        end
      end else if (advance) begin
        entries_o <= entries_o + 1;
        if (!`OPU_FIELD(insn_i, RESADD_BROADCAST)) res_q <= res_q + 1;
        if (c_q + 1 < cols) begin
          c_q <= c_q + 1;
          entry_q <= entry_q + 1;
        end else begin
          c_q <= '0;
          r_q <= r_q + 1;
          row_entry_q <= row_entry_q + pitch;
          entry_q <= row_entry_q + pitch;
          if (r_q + 1 == rows) running_q <= 1'b0;
        end
      end
      if (s1_valid_q && !running_q) done_o <= 1'b1;
    end
  end
endmodule
