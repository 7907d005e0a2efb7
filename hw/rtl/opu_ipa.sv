// The inner-product array: CO dot products of one feature-map pixel's L
// lanes with the CO rows of the weight matrix (signed). A lane's operand is
// its byte (signed, or unsigned: a u8 or the low byte of an i16 in a pass
// of its own), or with operand I16 an i16 whole: the byte high, the next
// row's (fm_next_i) low; through the depthwise window, taps kx < 4 an
// i16's high bytes, the taps 4 further its low. CO x L multipliers, one
// pixel a cycle, pipelined for the clock (docs/rtl.md, Timing): the 16 x
// 8-bit products (a DSP slice's 25 x 18) are registered (its M register),
// then each lane's L products are summed by an adder tree, two levels a
// register, not a chain.
// A pixel's sums come IPA_STAGES cycles after its operands (opu_shapes.svh).
// With halves_i (output pixels in pairs, opu_gemm) the tree's last stage
// gives the sums of its two halves apart: lanes below L / 2 at sums_o,
// lanes L / 2 on at sums_hi_o.
// In the depthwise window mode (opu_gemm) lane l of row j multiplies the
// window's tap (l / 8, l mod 8) of row j's channel instead of the pixel's
// byte l: a multiplexer before each multiplier of the window's lanes.
module opu_ipa
(
  input  logic                  clk_i,
  input  logic                  valid_i,  // operands this cycle; idle, nothing moves
  input  logic [opu_pkg::BEAT_BITS-1:0]       fm_i,
  input  logic [opu_pkg::BEAT_BITS-1:0]       fm_next_i,  // the low bytes of an i16 read whole
  input  logic [opu_pkg::WGT_BITS-1:0]        weights_i,  // W[j][l] at byte j * L + l
  input  logic [1:0]                 operand_i,  // opuc_isa_pkg::GEMM_OPERAND_*
  input  logic                       window_i,   // the operands are taps_i's
  input  logic [opu_pkg::WIN_ROWS*opu_pkg::WIN_COLS*8*opu_pkg::CO-1:0] taps_i,
  input  logic                       halves_i,   // the pixel's, with valid_i
  output logic [32*opu_pkg::CO-1:0] sums_o,     // lane j's at 32 j
  output logic [32*opu_pkg::CO-1:0] sums_hi_o   // with halves_i, the lanes L / 2 on
);
  localparam int unsigned LEVELS = opu_pkg::IPA_LEVELS;  // the tree's adder levels
  localparam int unsigned N = 1 << LEVELS;               // L, up to a power of two
  localparam int unsigned S = opu_pkg::IPA_STAGES - 1;   // the tree's registers
  localparam int unsigned SW = 24 + LEVELS;              // a sum of N 24-bit products
  logic [S-1:0] valid_q;   // stage s's registers hold a pixel's values, s < S
  logic [S-1:0] halves_q;  // and its halves_i

  always_ff @(posedge clk_i) begin
    valid_q[0] <= valid_i;
    halves_q[0] <= halves_i;
    for (int unsigned s = 1; s < S; s++) begin
      valid_q[s] <= valid_q[s-1];
      halves_q[s] <= halves_q[s-1];
    end
  end

  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    // st_q[0]: the lane's products; st_q[s]: sums of 4^s products (two
    // levels a stage; the last may have one), the whole sum at 0 in st_q[S];
    // values past a stage's count hold 0. nxt: what each registers.
    logic [N*SW-1:0] st_q [S+1];
    logic [N*SW-1:0] nxt [S+1];

    always_comb begin
      logic [N*SW-1:0] p, prev, next;
      logic signed [SW-1:0] sum, lo, hi;
      logic [7:0] x;
      logic signed [15:0] operand;
      int unsigned g, count;
      x = '0;
      operand = '0;
      p = '0;
      sum = '0;
      lo = '0;
      hi = '0;
      g = 0;
      count = 0;
      if (valid_i)
        for (int unsigned l = 0; l < opu_pkg::L; l++) begin
          x = fm_i[8*l +: 8];
          // Tap (l / 8, l mod 8) of row j's channel (taps outside the
          // kernel's hold zero: opu_gemm).
          if (window_i)
            x = l / 8 < opu_pkg::WIN_ROWS ?
                    taps_i[((l / 8 * opu_pkg::WIN_COLS + l % 8) * opu_pkg::CO + j) * 8 +: 8] : '0;
          // An i16 whole: the pixel's two rows; through the window, its
          // high bytes on taps kx < 4 (x 256), its low bytes on kx >= 4.
          if (operand_i == opuc_isa_pkg::GEMM_OPERAND_I16)
            operand = !window_i ? {x, fm_next_i[8*l +: 8]} : l % 8 < 4 ? {x, 8'h00} : {8'h00, x};
          else
            operand = {{8{operand_i == opuc_isa_pkg::GEMM_OPERAND_U8 ? 1'b0 : x[7]}}, x};
          p[SW*l +: SW] = SW'(operand * $signed(weights_i[8*(j*opu_pkg::L+l) +: 8]));
        end
      nxt[0] = p;
      for (int unsigned s = 1; s <= S; s++) begin
        // Stage s sums groups of g values of stage s - 1: 4 (two levels),
        // or 2 where one level is left.
        g = 2 * s <= LEVELS ? 4 : 2;
        count = N >> (2 * s <= LEVELS ? 2 * s : LEVELS);
        prev = st_q[s-1];
        next = '0;
        if (valid_q[s-1])
          for (int unsigned v = 0; v < N; v++)
            if (v < count) begin
              // The two halves of the group, then their sum: at the last
              // stage, the tree's halves (the lanes below L / 2, above).
              lo = '0;
              hi = '0;
              for (int unsigned k = 0; k < 4; k++)
                if (k < g / 2) lo = lo + $signed(prev[SW*(v*g + k) +: SW]);
                else if (k < g) hi = hi + $signed(prev[SW*(v*g + k) +: SW]);
              sum = lo + hi;
              next[SW*v +: SW] = s == S && halves_q[S-1] ? lo : sum;
              if (s == S) next[SW +: SW] = hi;
            end
        nxt[s] = next;
      end
    end

    always_ff @(posedge clk_i) begin
      if (valid_i) st_q[0] <= nxt[0];
      for (int unsigned s = 1; s <= S; s++)
        if (valid_q[s-1]) st_q[s] <= nxt[s];
    end

    always_comb begin
      logic [N*SW-1:0] last;
      last = st_q[S];
      sums_o[32*j +: 32] = 32'($signed(last[SW-1:0]));
      sums_hi_o[32*j +: 32] = 32'($signed(last[SW +: SW]));
    end
  end
endmodule
