// Output, Clamp, PRelu and ResAdd, lane by lane, on one multiplier and one
// rounding a lane: a post stage runs one instruction at a time, so the four
// share them (opu_post_stage), and a chain of three stages has three of
// each, not twelve. What each computes (numerics.md):
// - Output: clamp(rhu(acc x M[j] / 2^S[j]), lo, hi), M and S from bytes 4-5
//   and 6 of lane j's param slot;
// - Clamp: clamp(rhu(q / 2^shift), lo, hi);
// - PRelu: the same, a negative q times its lane's slope alpha (byte 7)
//   first and rounded by neg_shift;
// - ResAdd: (acc << a) + (res << b), or with multiply the product acc x
//   res (rounding p 2^a by 2^out is rounding p by 2^(out - a)), rounded by
//   out_shift and clamped. Lane j's residual is byte j of the residual's
//   lanes (opu_res_row: i8 or u8), or for an i16 that byte of the high
//   lanes (signed) and of the lanes (its low byte, unsigned); lanes from
//   res_lanes on add 0.
// The product is 48 x 17 bits (M is 16, alpha 8, a residual 17), the sum
// 80 (48 + 31 and a carry); one 80-bit rounding serves them all, exact for
// any of them (opu_requant). Pipelined within the 200 MHz budget (docs/rtl.md):
// 1. the operands; 2. the product as two 24 x 17-bit halves, a DSP48E1
// each, and the sum as two 40-bit halves, the high one for either carry;
// 3. the halves joined, the value to round picked; 4. opu_requant's shift;
// then its one-bit add and the clamp. POST_STAGE_CYCLES = 4 registers in all:
// entry_o is the entry given that many cycles before.
module opu_post_lanes
(
  input  logic                  clk_i,
  input  logic                  enable_i,   // an entry at entry_i this cycle
  input  logic [1:0]            kind_i,     // 0 Output, 1 Clamp, 2 PRelu, 3 ResAdd
  input  logic [opu_pkg::ENTRY_BITS-1:0] entry_i,
  input  logic [opu_pkg::PARAM_BITS-1:0] param_i,  // held while the entries pass
  input  logic [8*opu_pkg::CO-1:0] row_i,       // the entry's residual lanes
  input  logic [8*opu_pkg::CO-1:0] high_row_i,  // an i16's high bytes
  input  logic signed [7:0]     shift_i,      // Clamp's shift, PRelu's pos_shift
  input  logic signed [7:0]     neg_shift_i,  // PRelu's neg_shift
  input  logic [7:0]            res_lanes_i,
  input  logic [1:0]            res_format_i,  // 0 i8, 1 u8, 2 i16
  input  logic                  multiply_i,
  input  logic [4:0]            acc_shift_i,
  input  logic [4:0]            res_shift_i,
  input  logic [5:0]            out_shift_i,
  input  logic signed [15:0]    lo_i,
  input  logic signed [15:0]    hi_i,
  output logic [opu_pkg::ENTRY_BITS-1:0] entry_o
);
  localparam int unsigned ACC = opu_pkg::ACC_BITS;
  logic v1_q, v2_q, v3_q, v4_q;  // an entry in each register

  always_ff @(posedge clk_i) {v1_q, v2_q, v3_q, v4_q} <= {enable_i, v1_q, v2_q, v3_q};

  for (genvar j = 0; j < opu_pkg::CO; j++) begin : g_lane
    logic signed [ACC-1:0] acc, a1_q, q2_q;
    logic signed [16:0] res, b, b1_q;
    logic [7:0] byte_j, high_j;
    logic negative;
    logic signed [7:0] s, s1_q, s2_q;
    logic positive3_q;    // s > 0, and opu_requant's window for s
    logic [6:0] offset3_q;
    logic take_product1_q, take_product2_q, sum1_q, sum2_q;
    logic signed [79:0] acc_up1_q, x3_q;
    logic signed [47:0] res_up1_q;
    logic signed [41:0] low2_q;          // a's low 24 bits (unsigned) x b
    logic signed [40:0] high2_q;         // a's high 24 bits x b
    logic [40:0] sum_low2_q;             // the sum's low 40 bits and their carry
    logic [39:0] sum_high2_q, sum_carry2_q;  // its high 40 bits, without and with it
    logic signed [15:0] y;

    assign byte_j = row_i[8*j +: 8];
    assign high_j = high_row_i[8*j +: 8];
    assign acc = entry_i[ACC*j +: ACC];
    assign res = 32'(j) >= 32'(res_lanes_i) ? '0
               : res_format_i == 2'd2 ? {high_j[7], high_j, byte_j}
                                      : {{9{byte_j[7] && res_format_i == 2'd0}}, byte_j};
    assign negative = kind_i == 2'd2 && acc < 0;
    // The multiplier's second operand: M, alpha or the residual.
    assign b = kind_i == 2'd0 ? 17'(signed'(param_i[64*j+32 +: 16]))
             : kind_i == 2'd2 ? 17'(signed'(param_i[64*j+56 +: 8])) : res;
    assign s = kind_i == 2'd0 ? signed'(param_i[64*j+48 +: 8])
             : kind_i == 2'd3 ? (multiply_i ? 8'(out_shift_i) - 8'(acc_shift_i) : 8'(out_shift_i))
             : negative ? neg_shift_i : shift_i;

    always_ff @(posedge clk_i) begin
      if (enable_i) begin
        a1_q <= acc;
        b1_q <= b;
        acc_up1_q <= 80'(acc) <<< acc_shift_i;
        res_up1_q <= 48'(res) <<< res_shift_i;
        s1_q <= s;
        take_product1_q <= kind_i == 2'd0 || negative || (kind_i == 2'd3 && multiply_i);
        sum1_q <= kind_i == 2'd3 && !multiply_i;
      end
      if (v1_q) begin
        low2_q <= 42'(signed'({1'b0, a1_q[23:0]})) * 42'(b1_q);
        high2_q <= 41'(signed'(a1_q[47:24])) * 41'(b1_q);
        sum_low2_q <= 41'(acc_up1_q[39:0]) + 41'(res_up1_q[39:0]);
        sum_high2_q <= acc_up1_q[79:40] + 40'(signed'(res_up1_q[47:40]));
        sum_carry2_q <= acc_up1_q[79:40] + 40'(signed'(res_up1_q[47:40])) + 40'd1;
        q2_q <= a1_q;
        s2_q <= s1_q;
        {take_product2_q, sum2_q} <= {take_product1_q, sum1_q};
      end
      if (v2_q) begin
        x3_q <= take_product2_q ? (80'(high2_q) <<< 24) + 80'(low2_q)
              : sum2_q ? {sum_low2_q[40] ? sum_carry2_q : sum_high2_q, sum_low2_q[39:0]}
                       : 80'(q2_q);
        positive3_q <= s2_q > 8'sd0;
        offset3_q <= s2_q > 8'sd0 ? (s2_q > 8'sd80 ? 7'd99 : 7'(s2_q) + 7'd19)
                                  : (s2_q < -8'sd20 ? 7'd0 : 7'(s2_q) + 7'd20);
      end
    end
    opu_requant #(.W(80)) u_requant (
      .clk_i, .enable_i(v3_q), .x_i(x3_q), .positive_i(positive3_q), .offset_i(offset3_q),
      .lo_i, .hi_i, .y_o(y)
    );
    assign entry_o[ACC*j +: ACC] = v4_q ? 48'(y) : '0;
  end
endmodule
