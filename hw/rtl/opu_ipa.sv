// The inner-product array: CO dot products of one feature-map pixel's L
// lanes with the CO rows of the weight matrix (signed). A lane's operand is
// its byte (signed, or unsigned: a u8 or the low byte of an i16 in a pass
// of its own), or with operand I16 an i16 whole: the byte high, the next
// row's (fm_next_i) low; through the depthwise window, taps kx < 4 an
// i16's high bytes, the taps 4 further its low. CO x L multipliers, one
// pixel a cycle, pipelined for the clock (docs/rtl.md, Timing): the 16 x
// 8-bit products (a DSP slice's 25 x 18) are registered (its M register),
// then each lane's L products are summed by an adder tree, two levels a
// register, not a chain. Each stage's adders are as wide as its sums need
// (24 bits and one a level), and nothing stands between a product and its
// first adder, which Yosys then puts in the DSP slice's post-adder: the
// array alone 47,232 -> 32,881 LUTs (docs/rtl.md, Synthesis).
// A pixel's sums come IPA_STAGES cycles after its operands (opu_shapes.svh).
// With halves_i (output pixels in pairs, opu_gemm) the tree's last stage
// gives the sums of its two halves apart: lanes below L / 2 at sums_o,
// lanes L / 2 on at sums_hi_o.
// In the depthwise window mode (opu_gemm) lane l of row j multiplies the
// window's tap (l / 8, l mod 8) of row j's channel instead of the pixel's
// byte l: a multiplexer before each multiplier of the window's lanes,
// between the tap's operand and the pixel's, built once a lane.
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

  // Lane l's operand from the pixel, the same in every row: its byte, or
  // with I16 the byte over the next row's (fm_next_i); at 16 l. Built once
  // here rather than in each of the CO rows' multiplexers, whose own choice
  // is then the window's tap against this.
  logic [16*opu_pkg::L-1:0] pixel_ops;
  always_comb
    for (int unsigned l = 0; l < opu_pkg::L; l++) begin
      logic [7:0] b;
      b = fm_i[8*l +: 8];
      pixel_ops[16*l +: 16] = operand_i == opuc_isa_pkg::GEMM_OPERAND_I16 ? {b, fm_next_i[8*l +: 8]} :
          {{8{operand_i == opuc_isa_pkg::GEMM_OPERAND_U8 ? 1'b0 : b[7]}}, b};
    end

  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    // st_q[0]: the lane's products (24 bits each); st_q[s]: sums of 4^s
    // products (two levels a stage; the last may have one), the whole sum
    // at 0 in st_q[S]. Values sit SW bits apart, but stage s's are only
    // 24 + (the levels summed) bits wide, and its adders read no more of
    // them: the bits above are never read, and go.
    logic [(S+1)*N*SW-1:0] st_q;  // stage s's at s N SW (Yosys 0.23 reads no 2-D packed arrays)
    logic [N*SW-1:0] products;

    always_comb begin
      logic [7:0] t;
      logic signed [15:0] operand;
      products = '0;
      for (int unsigned l = 0; l < opu_pkg::L; l++) begin
        // Tap (l / 8, l mod 8) of row j's channel (taps outside the
        // kernel's hold zero: opu_gemm); an i16 whole through the window
        // has its high bytes on taps kx < 4 (x 256), its low bytes on kx >= 4.
        t = l / 8 < opu_pkg::WIN_ROWS ?
                taps_i[((l / 8 * opu_pkg::WIN_COLS + l % 8) * opu_pkg::CO + j) * 8 +: 8] : '0;
        if (!window_i)
          operand = pixel_ops[16*l +: 16];
        else if (operand_i == opuc_isa_pkg::GEMM_OPERAND_I16)
          operand = l % 8 < 4 ? {t, 8'h00} : {8'h00, t};
        else
          operand = {{8{operand_i == opuc_isa_pkg::GEMM_OPERAND_U8 ? 1'b0 : t[7]}}, t};
        products[SW*l +: SW] = SW'(operand * $signed(weights_i[8*(j*opu_pkg::L+l) +: 8]));
      end
    end

    always_ff @(posedge clk_i)
      if (valid_i) st_q[0 +: N*SW] <= products;

    for (genvar s = 1; s <= S; s++) begin : g_stage
      // Stage s sums groups of G values of stage s - 1 (4: two levels, or
      // 2 where one level is left), each WI bits wide.
      localparam int unsigned WI = 24 + (2 * (s - 1) < LEVELS ? 2 * (s - 1) : LEVELS);
      localparam int unsigned G = 2 * s <= LEVELS ? 4 : 2;
      localparam int unsigned COUNT = N >> (2 * s <= LEVELS ? 2 * s : LEVELS);
      logic [N*SW-1:0] next;

      always_comb begin
        logic signed [WI-1:0] a;
        logic signed [SW-1:0] lo, hi;
        next = '0;
        for (int unsigned v = 0; v < COUNT; v++) begin
          // The two halves of the group, then their sum: at the last
          // stage, the tree's halves (the lanes below L / 2, above).
          lo = '0;
          hi = '0;
          for (int unsigned k = 0; k < G; k++) begin
            a = st_q[N*SW*(s-1) + SW*(v*G + k) +: WI];
            if (k < G / 2) lo = lo + SW'(a);
            else hi = hi + SW'(a);
          end
          next[SW*v +: SW] = s == S && halves_q[S-1] ? lo : lo + hi;
          if (s == S) next[SW +: SW] = hi;
        end
      end

      always_ff @(posedge clk_i)
        if (valid_q[s-1]) st_q[N*SW*s +: N*SW] <= next;
    end

    assign sums_o[32*j +: 32] = 32'($signed(st_q[N*SW*S +: SW]));
    assign sums_hi_o[32*j +: 32] = 32'($signed(st_q[N*SW*S + SW +: SW]));
  end
endmodule
