// The dependency tokens between neighbouring engines (decoupled access and
// execute, as in TVM's VTA): four counters, load -> compute, compute ->
// store, compute -> load and store -> compute. An engine takes a token
// before it starts an instruction and gives one when the instruction is
// done; a counter may be given and taken in the same cycle.
module opu_tokens
(
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [opu_pkg::NUM_ENGINES-1:0] take_prev_i,
  input  logic [opu_pkg::NUM_ENGINES-1:0] take_next_i,
  input  logic [opu_pkg::NUM_ENGINES-1:0] give_prev_i,
  input  logic [opu_pkg::NUM_ENGINES-1:0] give_next_i,
  output logic [opu_pkg::NUM_ENGINES-1:0] has_prev_o,  // a token from the previous engine waits
  output logic [opu_pkg::NUM_ENGINES-1:0] has_next_o,  // a token from the next engine waits
  output logic                   leftover_o   // some token was given and never taken
);
  // forward[e]: from engine e to e + 1; backward[e]: from engine e + 1 to e.
  logic [15:0] forward_q [opu_pkg::NUM_ENGINES-1];
  logic [15:0] backward_q [opu_pkg::NUM_ENGINES-1];

  always_comb begin
    leftover_o = 1'b0;
    for (int unsigned e = 0; e < opu_pkg::NUM_ENGINES; e++) begin
      has_prev_o[e] = e > 0 && forward_q[e-1] != '0;
      has_next_o[e] = e + 1 < opu_pkg::NUM_ENGINES && backward_q[e] != '0;
    end
    for (int unsigned e = 0; e + 1 < opu_pkg::NUM_ENGINES; e++)
      leftover_o = leftover_o || forward_q[e] != '0 || backward_q[e] != '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned e = 0; e + 1 < opu_pkg::NUM_ENGINES; e++) begin
        forward_q[e] <= '0;
        backward_q[e] <= '0;
      end
    end else begin
      for (int unsigned e = 0; e + 1 < opu_pkg::NUM_ENGINES; e++) begin
        forward_q[e] <= forward_q[e] + 16'(give_next_i[e]) - 16'(take_prev_i[e+1]);
        backward_q[e] <= backward_q[e] + 16'(give_prev_i[e+1]) - 16'(take_next_i[e]);
      end
    end
  end
endmodule
