// The compare stage's lookup table, one a chain (opu_post): the table's
// 514 bytes, 257 knots of 16 bits, filled a feature-map row at a time before
// the entries pass, and read by every lane at once. An 8-bit value indexes a
// 256-entry table (T[q + 128] for i8, T[q] for u8); an i16 q = 256 high + low
// interpolates between knots T[high + 128] and T[high + 129] of a 257-entry
// table, rounded once. Each lane reads its own copy of the rows (LUTRAM: one
// write port, the fill's, and two asynchronous reads, the knot and the next),
// so a lookup reads two rows and picks a knot of each, not one byte of 514
// from a register file per byte read. Pipelined: the knots behind a
// register, their difference and the interpolation's product behind
// another (a DSP48E1's), the sum after: entry_o is the entry given
// TABLE_CYCLES = 2 cycles before.
module opu_table
(
  input  logic                  enable_i,  // an entry at entry_i this cycle
  input  logic                  clk_i,
  input  logic                  fill_i,       // write row_i at fill_row_i
  input  logic [31:0]           fill_row_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  row_i,
  input  logic [1:0]            format_i,     // 0 i8, 1 u8, 2 i16
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  localparam int unsigned ROWS = (2 * 257 + opu_pkg::L - 1) / opu_pkg::L;
  localparam int unsigned RW = $clog2(ROWS);
  localparam int unsigned KNOTS = opu_pkg::L / 2;  // knots a row (L is a power of two)
  localparam int unsigned KW = KNOTS > 1 ? $clog2(KNOTS) : 1;

  logic v1_q, v2_q;
  always_ff @(posedge clk_i) {v1_q, v2_q} <= {enable_i, v1_q};

  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    (* ram_style = "distributed" *) logic [opu_pkg::BEAT_BITS-1:0] rows_q [ROWS];

    always_ff @(posedge clk_i)
      if (fill_i && fill_row_i < ROWS) rows_q[fill_row_i[RW-1:0]] <= row_i;

    logic [15:0] q;
    logic [8:0] ka;
    logic [RW-1:0] ra;
    logic [opu_pkg::BEAT_BITS-1:0] row_a;
    logic [opu_pkg::BEAT_BITS+15:0] knots;
    logic signed [16:0] a, b, a1_q, a2_q;
    logic signed [16:0] b1_q;       // the next knot for an i16, else a again
    logic [7:0] frac1_q;            // its low byte, the knots' weight
    logic signed [26:0] product2_q, rounded;
    logic signed [26:0] step;
    logic signed [47:0] value;

    assign q = entry_i[opu_pkg::ACC_BITS*j +: 16];
    assign ka = format_i == 2'd2 ? {1'b0, ~q[15], q[14:8]} :
                format_i == 2'd0 ? {1'b0, ~q[7], q[6:0]} : {1'b0, q[7:0]};
    // Knot ka and the one after it: the rest of ka's row and the next
    // row's first, picked by ka's place in its row alone (no ka + 1 before
    // the rows' read: a carry chain there was the design's longest path).
    assign ra = RW'(ka >> KW);
    assign row_a = rows_q[ra];
    assign knots = {rows_q[ra + 1'b1][15:0], row_a};
    assign a = 17'(signed'(row_a[16 * 32'(ka[KW-1:0]) +: 16]));
    assign b = 17'(signed'(knots[16 * 32'(ka[KW-1:0]) + 16 +: 16]));

    always_ff @(posedge clk_i) begin
      if (enable_i) begin
        a1_q <= a;
        b1_q <= format_i == 2'd2 ? b : a;
        frac1_q <= q[7:0];
      end
      if (v1_q) begin
        a2_q <= a1_q;
        // The knots' difference here, not before the register: after the
        // rows' read and the knot's pick it made opu1024's longest path.
        product2_q <= (27'(b1_q) - 27'(a1_q)) * 27'($signed({1'b0, frac1_q}));
      end
    end
    // Signed wires: a shift inside `v2_q ? ... : '0` would be unsigned.
    assign rounded = product2_q + 27'sd128;
    assign step = rounded >>> 8;
    assign value = 48'(a2_q) + 48'(step);
    assign entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = v2_q ? value : '0;
  end
endmodule
