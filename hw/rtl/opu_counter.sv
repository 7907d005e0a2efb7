// A 64-bit statistics counter (docs/rtl.md, Timing budget): the low 24
// bits add the step, their carry waits in a register, and the high 40 bits
// take it the cycle after. So the step's own logic (a retirement check, say)
// comes before a 24-bit carry chain (6 CARRY4), not a 64-bit one (16), and
// the high half's chain starts at registers. value_o is exact every cycle:
// a carry still waiting is added where the value is read, a path that
// ends at no register.
module opu_counter #(
  parameter int unsigned STEP_BITS = 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [STEP_BITS-1:0] step_i,  // added at the clock edge
  output logic [63:0]          value_o
);
  localparam int unsigned LOW = 24;
  logic [LOW-1:0]    low_q;
  logic [63-LOW:0]   high_q;
  logic              carry_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {low_q, high_q, carry_q} <= '0;
    end else begin
      {carry_q, low_q} <= (LOW+1)'(low_q) + (LOW+1)'(step_i);
      high_q <= high_q + (64-LOW)'(carry_q);
    end
  end
  assign value_o = {high_q + (64-LOW)'(carry_q), low_q};
endmodule
