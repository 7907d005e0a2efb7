// The compare stage's lookup tables: a register file of the table's bytes
// (filled from feature-map rows before the entries pass), read by every
// lane at once. An 8-bit value indexes a 256-entry table (T[q + 128] for
// i8, T[q] for u8); an i16 q = 256 high + low interpolates between knots
// T[high + 128] and T[high + 129] of a 257-entry table, rounded once.
module opu_table
(
  input  logic                  enable_i,  // operand isolation: idle, it computes nothing
  input  logic                  clk_i,
  input  logic                  fill_i,       // write row_i at fill_row_i
  input  logic [31:0]           fill_row_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]  row_i,
  input  logic [1:0]            format_i,     // 0 i8, 1 u8, 2 i16
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  localparam int unsigned ROWS = (2 * 257 + opu_pkg::L - 1) / opu_pkg::L;
  logic [7:0] bytes_q [ROWS * opu_pkg::L];

  function automatic logic signed [16:0] knot(input logic [8:0] k);
    knot = 17'(signed'({bytes_q[2*k+1], bytes_q[2*k]}));
  endfunction

  always_ff @(posedge clk_i) begin
    if (fill_i && fill_row_i < ROWS)
      for (int unsigned b = 0; b < opu_pkg::L; b++) bytes_q[fill_row_i*opu_pkg::L+b] <= row_i[8*b +: 8];
  end

  always_comb begin
    entry_o = '0;
    for (int unsigned j = 0; j < opu_pkg::CO; j++) begin
      logic [15:0] q;
      logic signed [16:0] a, b;
      logic signed [25:0] step;
      q = entry_i[opu_pkg::ACC_BITS*j +: 16];
      a = '0;
      b = '0;
      step = '0;
      if (enable_i) begin
        if (format_i == 2'd2) begin
          a = knot(9'({~q[15], q[14:8]}));
          b = knot(9'({~q[15], q[14:8]}) + 9'd1);
          step = ($signed(26'(b) - 26'(a)) * $signed({18'd0, q[7:0]}) + 26'sd128) >>> 8;
        end else begin
          a = knot(format_i == 2'd0 ? {1'b0, ~q[7], q[6:0]} : {1'b0, q[7:0]});
        end
        entry_o[opu_pkg::ACC_BITS*j +: opu_pkg::ACC_BITS] = 48'(a) + 48'(step);
      end
    end
  end
endmodule
