// An on-chip buffer of ROWS rows, each BEATS beats of BEAT_BITS: the load
// engine writes a beat at a time (or a whole row of zeros, for padding);
// the compute engine reads whole rows, one cycle after the address, through
// two ports (the array's and the post-processing stages'), or one
// (READ_PORTS = 1: the weight buffer's, which only the array reads). A
// diagonal write (the weight buffer's, whose BEATS are CO) spreads one beat
// over the row: beat j keeps the beat's bytes l with l mod BEATS = j.
module opu_buffer #(
  parameter int unsigned ROWS = 16,
  parameter int unsigned BEATS = 1,
  parameter int unsigned BEAT_BITS = 64,
  parameter int unsigned READ_PORTS = 2,
  localparam int unsigned AW = ROWS > 1 ? $clog2(ROWS) : 1,
  localparam int unsigned BW = BEATS > 1 ? $clog2(BEATS) : 1
) (
  input  logic                       clk_i,
  input  logic                       we_i,
  input  logic [AW-1:0]              waddr_i,
  input  logic [BW-1:0]              wbeat_i,
  input  logic                       wzero_row_i,  // write zeros to every beat of the row
  input  logic                       wdiag_i,
  input  logic [BEAT_BITS-1:0]       wdata_i,
  input  logic [AW-1:0]              raddr_i,
  output logic [BEATS*BEAT_BITS-1:0] rdata_o,
  input  logic [AW-1:0]              raddr_b_i,
  output logic [BEATS*BEAT_BITS-1:0] rdata_b_o
);
  (* ram_style = "block" *) logic [BEATS*BEAT_BITS-1:0] mem [ROWS];  // block RAM, not LUTRAM
  logic [BEATS*BEAT_BITS-1:0] spread;

  // Beat j's mask: the bytes l with l mod BEATS = j.
  function automatic logic [BEAT_BITS-1:0] lanes_of(input int unsigned j);
    for (int unsigned l = 0; l < BEAT_BITS / 8; l++)
      lanes_of[8*l +: 8] = l % BEATS == j ? 8'hff : 8'h00;
  endfunction
  // Only a diagonal write computes it (operand isolation: the write data
  // changes with every beat any load brings).
  always_comb
    for (int unsigned j = 0; j < BEATS; j++)
      spread[j*BEAT_BITS +: BEAT_BITS] = wdiag_i ? wdata_i & lanes_of(j) : '0;

  // One write port with a beat's enable each (a block RAM's byte enables):
  // a zero row and a diagonal write enable every beat, a beat write one.
  logic [BEATS*BEAT_BITS-1:0] row;
  logic [BEATS-1:0] beat_we;
  always_comb begin
    for (int unsigned j = 0; j < BEATS; j++) begin
      row[j*BEAT_BITS +: BEAT_BITS] = wzero_row_i ? '0 : wdiag_i ? spread[j*BEAT_BITS +: BEAT_BITS]
                                                             : wdata_i;
      beat_we[j] = we_i && (wzero_row_i || wdiag_i || BW'(j) == wbeat_i);
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned j = 0; j < BEATS; j++)
      if (beat_we[j]) mem[waddr_i][j*BEAT_BITS +: BEAT_BITS] <= row[j*BEAT_BITS +: BEAT_BITS];
    rdata_o <= mem[raddr_i];
  end
  // A second read port is a second copy of the memory in block RAM (a
  // block RAM has one read port beside its write port), even when its data
  // go unused: Yosys keeps the port.
  if (READ_PORTS > 1) begin : g_port_b
    always_ff @(posedge clk_i) rdata_b_o <= mem[raddr_b_i];
  end else begin : g_no_port_b
    logic raddr_b_unused;
    assign raddr_b_unused = ^raddr_b_i;
    assign rdata_b_o = '0;
  end
endmodule
