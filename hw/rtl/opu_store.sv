// The store engine: rows x cols pixels of the accumulator to DRAM, one
// byte per lane (bits 7:0, or 15:8 for an i16's high plane), the first
// `lanes` lanes of each pixel; consecutive pixels are L bytes apart. One
// pixel a cycle while DRAM takes them: a two-entry queue holds the pixels
// read while a write waits. With `upsample` (the upsample stage) each pixel
// is read four times and written as a 2x2 block of the doubled map.
`include "opu_field.svh"
module opu_store
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,
  input  opu_pkg::word_t                 insn_i,       // held for the whole instruction
  output logic                  done_o,
  output logic                  dram_wait_o,
  output logic [31:0]           acc_raddr_o,
  input  logic [opu_pkg::ENTRY_BITS-1:0] acc_rdata_i,
  output logic                  wr_valid_o,
  output logic [31:0]           wr_addr_o,
  output logic [8*opu_pkg::CO-1:0]       wr_data_o,
  output logic [opu_pkg::CO-1:0]         wr_mask_o,
  input  logic                  wr_ready_i,
  output logic [63:0]           bytes_o
);
  localparam int unsigned QW = 32 + 8 * opu_pkg::CO;
  logic        busy_q, running_q, inflight_q;
  logic [31:0] r_q, c_q, row_entry_q, entry_q, row_dram_q, dram_q, inflight_addr_q;
  logic [31:0] rows, cols, stride, pixel_step, row_step, copy_addr;
  logic        up;
  logic [1:0]  copy_q;  // which of a pixel's 2x2 copies is read next
  logic [1:0]  count;
  logic        empty, issue, accept;
  logic [QW-1:0] head;
  logic [8*opu_pkg::CO-1:0] bytes;

  assign rows = 32'(`OPU_FIELD(insn_i, STORE_ROWS));
  assign cols = 32'(`OPU_FIELD(insn_i, STORE_COLS));
  assign stride = 32'(`OPU_FIELD(insn_i, STORE_DRAM_STRIDE));
  assign up = `OPU_FIELD(insn_i, STORE_UPSAMPLE) != 0;
  assign pixel_step = up ? 32'(2 * opu_pkg::L) : 32'(opu_pkg::L);
  assign row_step = up ? stride << 1 : stride;
  assign copy_addr = dram_q + (copy_q[1] ? stride : '0) + (copy_q[0] ? 32'(opu_pkg::L) : '0);
  // Room in the queue next cycle for the pixel read now: counting the one
  // leaving this cycle keeps a pixel a cycle flowing.
  assign issue = running_q && 32'(count) + 32'(inflight_q) < 2 + 32'(accept);
  assign accept = !empty && wr_ready_i;
  assign acc_raddr_o = entry_q;

  always_comb begin
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      bytes[8*j +: 8] = `OPU_FIELD(insn_i, STORE_HIGH_BYTE) ? acc_rdata_i[opu_pkg::ACC_BITS*j+8 +: 8]
                                                           : acc_rdata_i[opu_pkg::ACC_BITS*j +: 8];
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      wr_mask_o[j] = 32'(j) < 32'(`OPU_FIELD(insn_i, STORE_LANES));
  end

  opu_fifo #(.WIDTH(QW), .DEPTH(2)) u_pending (
    .clk_i, .rst_ni,
    .push_i(inflight_q), .data_i({inflight_addr_q, bytes}),
    .pop_i(accept), .head_o(head), .empty_o(empty), .count_o(count)
  );
  assign wr_valid_o = !empty;
  assign wr_addr_o = head[QW-1:8*opu_pkg::CO];
  assign wr_data_o = head[8*opu_pkg::CO-1:0];
  assign dram_wait_o = !empty && !wr_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {busy_q, running_q, inflight_q, done_o} <= '0;
      {r_q, c_q, row_entry_q, entry_q, row_dram_q, dram_q, inflight_addr_q} <= '0;
      copy_q <= '0;
      bytes_o <= '0;
    end else begin
      done_o <= 1'b0;
      inflight_q <= issue;
      inflight_addr_q <= copy_addr;
      if (accept) bytes_o <= bytes_o + 64'(`OPU_FIELD(insn_i, STORE_LANES));
      // Done once every pixel is read and written: nothing in flight or queued.
      if (busy_q && !start_i && !running_q && !inflight_q && empty) begin
        busy_q <= 1'b0;
        done_o <= 1'b1;
      end
      if (start_i) begin
        busy_q <= 1'b1;
        running_q <= rows != 0 && cols != 0;
        {r_q, c_q} <= '0;
        copy_q <= '0;
        row_entry_q <= 32'(`OPU_FIELD(insn_i, STORE_ACC_ADDR));
        entry_q <= 32'(`OPU_FIELD(insn_i, STORE_ACC_ADDR));
        row_dram_q <= `OPU_FIELD(insn_i, STORE_DRAM_ADDR);
        dram_q <= `OPU_FIELD(insn_i, STORE_DRAM_ADDR);
      end else if (issue) begin
        if (up && copy_q != 2'd3) begin
          copy_q <= copy_q + 2'd1;
        end else if (c_q + 1 < cols) begin
          copy_q <= '0;
          c_q <= c_q + 1;
          entry_q <= entry_q + 1;
          dram_q <= dram_q + pixel_step;
        end else begin
          copy_q <= '0;
          c_q <= '0;
          r_q <= r_q + 1;
          row_entry_q <= row_entry_q + 32'(`OPU_FIELD(insn_i, STORE_ACC_PITCH));
          entry_q <= row_entry_q + 32'(`OPU_FIELD(insn_i, STORE_ACC_PITCH));
          row_dram_q <= row_dram_q + row_step;
          dram_q <= row_dram_q + row_step;
          if (r_q + 1 == rows) running_q <= 1'b0;
        end
      end
    end
  end

endmodule
