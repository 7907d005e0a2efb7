// A 2x2 max pool, stride 2, as the tail of a post pass (opu_post): it takes
// each entry the pass writes, in order, rows of `src_cols` entries (even,
// as the rows are), and keeps each window's max in a block RAM of pooled
// entries: a row pair's first row writes its column pairs' maxes, the
// second combines with them, a register after the pair completes (the
// RAM's read a cycle before).
//
// A window's pooled entry is written to the accumulator (dst on, in window
// order) while the pass runs, through a write port of its own
// (opu_acc_buffer's pool port): it waits in a queue of two for a cycle in
// which the pass's own write goes to another of the accumulator's RAMs
// (banks 0 and 1 are each an even and an odd RAM, and the pass's
// consecutive entries alternate between them; the RAM of its next write is
// worked out a cycle ahead, from the one before, so the choice is short),
// so codegen's passes end a few cycles after their last entry rather than
// a cycle a pooled entry later. A window that finds the queue full is
// written after the pass instead, read back from the block RAM with every
// window after it (a pass in the one-RAM sums bank; never in codegen's
// programs). Then it says done. The values are the stages' outputs, 16
// bits a lane at most.
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
  input  logic [31:0]           first_i,     // the pass's first entry, held
  input  logic                  main_we_i,   // the pass writes an entry this cycle (its
  input  logic [31:0]           main_waddr_i,  // entries one after another), here
  output logic                  we_o,        // the pool write port
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
  // The queue of finished windows: slot 0 its head.
  logic          head_valid_q, next_valid_q;  // the head, the one behind it
  logic [31:0]   head_addr_q, next_addr_q;
  logic [2:0]    head_ram_q, next_ram_q;
  logic [W-1:0]  head_value_q, next_value_q;
  logic [31:0]   finished_addr;  // the finished window's entry
  logic [2:0]    main_ram_q;     // the RAM the pass's next write goes to
  logic          finished, pop, room;
  logic          head_valid, second_valid;  // the queue's valid bits: the head out, a window in
  // The first window the queue had no room for (dropped_q), written after
  // the pass from the block RAM with every one after it: the drain reads
  // window k_q, the read a cycle ago writes.
  logic          dropped_q, waiting_q, ending_q, draining_q, read_q;
  logic [AW-1:0] first_dropped_q, k_q;
  logic [31:0]   write_at_q;

  function automatic logic [W-1:0] lane_max(input logic [W-1:0] a, input logic [W-1:0] b);
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      lane_max[16*j +: 16] = $signed(a[16*j +: 16]) > $signed(b[16*j +: 16]) ? a[16*j +: 16]
                                                                           : b[16*j +: 16];
  endfunction
  // Entry a's accumulator RAM (opu_acc_buffer): banks 0 and 1 two each, by
  // the entry's parity; the sums bank one.
  function automatic logic [2:0] ram_of(input logic [31:0] a);
    ram_of = a < opu_pkg::ACC_BANK1 ? {2'd0, a[0]} : a < opu_pkg::ACC_SUMS ? {2'd1, a[0]} : 3'd4;
  endfunction
  function automatic logic [opu_pkg::ENTRY_BITS-1:0] widened(input logic [W-1:0] v);
    for (int unsigned j = 0; j < opu_pkg::CO; j++)
      widened[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] =
          {{(opu_pkg::ACC_BITS - 16){v[16*j+15]}}, v[16*j +: 16]};
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

  // The head goes out in a cycle the pass writes another RAM or none.
  assign finished = pair_q && pair_second_q;
  assign finished_addr = 32'(dst_i) + 32'(pair_at_q);
  assign pop = head_valid_q && !read_q && (!main_we_i || main_ram_q != head_ram_q);
  assign room = !next_valid_q || pop;
  always_comb begin
    head_valid = pop ? next_valid_q : head_valid_q;
    second_valid = pop ? 1'b0 : next_valid_q;
    if (finished && room) begin
      if (head_valid) second_valid = 1'b1;
      else head_valid = 1'b1;
    end
  end
  assign we_o = read_q || pop;
  assign waddr_o = read_q ? write_at_q : head_addr_q;
  assign wdata_o = widened(read_q ? partial : head_value_q);

  always_ff @(posedge clk_i) begin
    if (entry_valid_i && !col_q[0]) left_q <= value;
    if (entry_valid_i && col_q[0]) begin
      pair_max_q <= pair_max;
      pair_at_q <= row_base_q + AW'(col_q[9:1]);
      pair_second_q <= second_q;
    end
    if (pair_q) last_at_q <= pair_at_q;
    // The queue shifts as its head goes; a finished window joins behind.
    if (pop) begin
      head_addr_q <= next_addr_q;
      head_ram_q <= next_ram_q;
      head_value_q <= next_value_q;
    end
    if (finished && room) begin
      if (pop ? next_valid_q : head_valid_q) begin
        next_addr_q <= finished_addr;
        next_ram_q <= ram_of(finished_addr);
        next_value_q <= combined;
      end else begin
        head_addr_q <= finished_addr;
        head_ram_q <= ram_of(finished_addr);
        head_value_q <= combined;
      end
    end
    // The pass writes its entries one after another: its next write's RAM
    // is the one after its last write's entry, or its first entry's.
    if (start_i) main_ram_q <= ram_of(first_i);
    else if (main_we_i) main_ram_q <= ram_of(main_waddr_i + 32'd1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {col_q, second_q, row_base_q, pair_q, waiting_q, ending_q, draining_q, read_q, k_q} <= '0;
      {dropped_q, first_dropped_q, done_o} <= '0;
      head_valid_q <= 1'b0;
      next_valid_q <= 1'b0;
      write_at_q <= '0;
    end else begin
      done_o <= 1'b0;
      pair_q <= entry_valid_i && col_q[0];
      if (start_i) begin
        {col_q, second_q, row_base_q, dropped_q} <= '0;
      end else if (entry_valid_i) begin
        if (col_q + 10'd1 == src_cols_i) begin
          col_q <= '0;
          second_q <= !second_q;
          if (second_q) row_base_q <= row_base_q + AW'(src_cols_i[9:1]);
        end else begin
          col_q <= col_q + 10'd1;
        end
      end
      head_valid_q <= head_valid;
      next_valid_q <= second_valid;
      if (finished && !room && !dropped_q) begin
        dropped_q <= 1'b1;
        first_dropped_q <= pair_at_q;
      end
      // The last window finishes the cycle after the last entry; once the
      // queue is empty, the drain (if a window was dropped) or done.
      waiting_q <= last_i;
      if (waiting_q) ending_q <= 1'b1;
      if (ending_q && !head_valid_q && !next_valid_q && !draining_q && !read_q) begin
        ending_q <= 1'b0;
        if (dropped_q) begin
          draining_q <= 1'b1;
          k_q <= first_dropped_q;
        end else begin
          done_o <= 1'b1;
        end
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
