// A 2x2 max pool, stride 2, as the tail of a post pass (opu_post): it takes
// each entry the pass writes, in order, rows of `src_cols` entries (even,
// as the rows are), and keeps each window's max in a block RAM of pooled
// entries: a row pair's first row writes its column pairs' maxes, the
// second combines with them, a register after the pair completes (the
// RAM's read a cycle before). Once the pass's last entry is in, it writes
// the pooled entries to the accumulator from `dst` on, one a cycle, then
// says done. The values are the stages' outputs, 16 bits a lane at most.
module opu_pool_tail
(
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  start_i,     // a pass with this tail starts
  input  logic [9:0]            src_cols_i,  // held for the pass, as is dst_i
  input  logic [15:0]           dst_i,
  input  logic                  entry_valid_i,  // the pass writes this entry now
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic                  last_i,      // ... and it is the pass's last
  output logic                  we_o,
  output logic [31:0]           waddr_o,
  output logic [opu_pkg::ENTRY_BITS-1:0] wdata_o,
  output logic                  done_o       // a cycle, after the last pooled entry's write
);
  localparam int unsigned W = 16 * opu_pkg::CO;  // a pooled entry: 16 bits a lane
  localparam int unsigned DEPTH = opu_pkg::POOL_TAIL_ENTRIES;
  localparam int unsigned AW = $clog2(DEPTH);

  // Where the next entry lies: its column, whether its row is a pair's
  // second, the pooled index of its row pair's first window.
  logic [9:0]    col_q;
  logic          second_q;
  logic [AW-1:0] row_base_q;
  logic [W-1:0]  left_q, value, pair_max;  // a column pair's first entry; the entry now
  // A completed column pair, a register after: its max, window, row.
  logic          pair_q, pair_second_q;
  logic [W-1:0]  pair_max_q, partial, combined;
  logic [AW-1:0] pair_at_q, last_at_q;
  // The drain: reading pooled entry k_q, the read a cycle ago to write.
  logic          waiting_q, draining_q, read_q;
  logic [AW-1:0] k_q;
  logic [31:0]   write_at_q;

  function automatic logic [W-1:0] lane_max(input logic [W-1:0] a, input logic [W-1:0] b);
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      lane_max[16*j +: 16] = $signed(a[16*j +: 16]) > $signed(b[16*j +: 16]) ? a[16*j +: 16]
                                                                           : b[16*j +: 16];
  endfunction

  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      value[16*j +: 16] = entry_i[opu_pkg::ACC_BITS*j +: 16];
  assign pair_max = lane_max(left_q, value);
  assign combined = pair_second_q ? lane_max(partial, pair_max_q) : pair_max_q;

  opu_sdp_ram #(.WIDTH(W), .DEPTH(DEPTH)) u_pooled (
    .clk_i, .we_i(pair_q), .waddr_i(pair_at_q), .wdata_i(combined),
    .raddr_i(draining_q ? k_q : row_base_q + AW'(col_q[9:1])), .rdata_o(partial)
  );

  assign we_o = read_q;
  assign waddr_o = write_at_q;
  always_comb
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      wdata_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] =
          {{(opu_pkg::ACC_BITS - 16){partial[16*j+15]}}, partial[16*j +: 16]};

  always_ff @(posedge clk_i) begin
    if (entry_valid_i && !col_q[0]) left_q <= value;
    if (entry_valid_i && col_q[0]) begin
      pair_max_q <= pair_max;
      pair_at_q <= row_base_q + AW'(col_q[9:1]);
      pair_second_q <= second_q;
    end
    if (pair_q) last_at_q <= pair_at_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {col_q, second_q, row_base_q, pair_q, waiting_q, draining_q, read_q, k_q, done_o} <= '0;
      write_at_q <= '0;
    end else begin
      done_o <= 1'b0;
      pair_q <= entry_valid_i && col_q[0];
      if (start_i) begin
        {col_q, second_q, row_base_q} <= '0;
      end else if (entry_valid_i) begin
        if (col_q + 10'd1 == src_cols_i) begin
          col_q <= '0;
          second_q <= !second_q;
          if (second_q) row_base_q <= row_base_q + AW'(src_cols_i[9:1]);
        end else begin
          col_q <= col_q + 10'd1;
        end
      end
      // The last pair reaches the RAM the cycle after the last entry; the
      // drain reads from the cycle after that.
      waiting_q <= last_i;
      if (waiting_q) begin
        draining_q <= 1'b1;
        k_q <= '0;
      end else if (draining_q) begin
        k_q <= k_q + 1'b1;
        if (k_q == last_at_q) draining_q <= 1'b0;
      end
      read_q <= draining_q;
      write_at_q <= 32'(dst_i) + 32'(k_q);
      if (read_q && !draining_q) done_o <= 1'b1;
    end
  end
endmodule
