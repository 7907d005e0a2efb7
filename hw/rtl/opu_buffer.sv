// An on-chip buffer of ROWS rows, each BEATS beats of BEAT_BITS: the load
// engine writes a beat at a time (or a whole row of zeros, for padding);
// the compute engine reads whole rows, one cycle after the address, through
// two ports (the array's and the post-processing stages'), or one
// (READ_PORTS = 1: the weight buffer's, which only the array reads). A
// diagonal write (the weight buffer's, whose BEATS are CO) spreads one beat
// over the row: beat j keeps the beat's bytes l with l mod BEATS = j.
// PAIRS = 1 (the feature-map buffer) keeps even and odd rows in two banks,
// so that the first port also reads the row after its address (rdata_next_o:
// the depthwise window's two columns a cycle at stride 2, opu_gemm.sv), and
// a write may also write the row after its own (wpair_i: two compact pixels
// a cycle from the load engine, at waddr_next_i = waddr_i + 1).
module opu_buffer #(
  parameter int unsigned ROWS = 16,
  parameter int unsigned BEATS = 1,
  parameter int unsigned BEAT_BITS = 64,
  parameter int unsigned READ_PORTS = 2,
  parameter int unsigned PAIRS = 0,
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
  input  logic                       wpair_i,       // PAIRS = 1: also wdata_next_i at waddr_next_i
  input  logic [AW-1:0]              waddr_next_i,
  input  logic [BEAT_BITS-1:0]       wdata_next_i,
  input  logic [AW-1:0]              raddr_i,
  output logic [BEATS*BEAT_BITS-1:0] rdata_o,
  output logic [BEATS*BEAT_BITS-1:0] rdata_next_o,  // row raddr_i + 1 (PAIRS = 1), else 0
  input  logic [AW-1:0]              raddr_b_i,
  output logic [BEATS*BEAT_BITS-1:0] rdata_b_o
);
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

  if (PAIRS == 0) begin : g_one_bank
    (* ram_style = "block" *) logic [BEATS*BEAT_BITS-1:0] mem [ROWS];  // block RAM, not LUTRAM
    always_ff @(posedge clk_i) begin
      for (int unsigned j = 0; j < BEATS; j++)
        if (beat_we[j]) mem[waddr_i][j*BEAT_BITS +: BEAT_BITS] <= row[j*BEAT_BITS +: BEAT_BITS];
      rdata_o <= mem[raddr_i];
    end
    assign rdata_next_o = '0;
    logic pair_unused;
    assign pair_unused = wpair_i ^ ^waddr_next_i ^ ^wdata_next_i;
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
  end else begin : g_two_banks
    // Row r lives in bank r mod 2 at r / 2. Rows a and a + 1 are in
    // different banks: bank 0 at (a + 1) / 2, bank 1 at a / 2. Whole-row
    // writes only (BEATS = 1: the feature-map buffer), a bank each for a
    // pair.
    localparam int unsigned HW = AW > 1 ? AW - 1 : 1;
    localparam int unsigned EVEN_ROWS = (ROWS + 1) / 2, ODD_ROWS = ROWS / 2 > 0 ? ROWS / 2 : 1;
    (* ram_style = "block" *) logic [BEATS*BEAT_BITS-1:0] even [EVEN_ROWS];
    (* ram_style = "block" *) logic [BEATS*BEAT_BITS-1:0] odd [ODD_ROWS];
    logic [BEATS*BEAT_BITS-1:0] even_q, odd_q, even_b_q, odd_b_q;
    logic [HW-1:0] even_raddr;
    logic a_odd_q, b_odd_q;
    logic [AW:0] a_next;  // a + 1: its bit 0 chooses no bank
    assign a_next = {1'b0, raddr_i} + 1'b1;
    assign even_raddr = HW'(a_next[AW:1]);
    logic a_next_unused;
    assign a_next_unused = a_next[0];
    logic [HW-1:0] even_waddr;
    logic [BEATS*BEAT_BITS-1:0] even_wdata, odd_wdata;
    logic even_we, odd_we;
    assign even_we = beat_we[0] && (!waddr_i[0] || wpair_i);
    assign odd_we = beat_we[0] && (waddr_i[0] || wpair_i);
    assign even_waddr = HW'(waddr_i[0] ? waddr_next_i[AW-1:1] : waddr_i[AW-1:1]);
    logic waddr_next_unused;  // a + 1's bit 0 chooses no bank
    assign waddr_next_unused = waddr_next_i[0];
    assign even_wdata = waddr_i[0] ? wdata_next_i : row;
    assign odd_wdata = waddr_i[0] ? row : wdata_next_i;
    always_ff @(posedge clk_i) begin
      if (even_we) even[even_waddr] <= even_wdata;
      if (odd_we) odd[HW'(waddr_i[AW-1:1])] <= odd_wdata;
      even_q <= even[even_raddr];
      odd_q <= odd[HW'(raddr_i[AW-1:1])];
      a_odd_q <= raddr_i[0];
    end
    assign rdata_o = a_odd_q ? odd_q : even_q;
    assign rdata_next_o = a_odd_q ? even_q : odd_q;
    if (READ_PORTS > 1) begin : g_port_b
      always_ff @(posedge clk_i) begin
        even_b_q <= even[HW'(raddr_b_i[AW-1:1])];
        odd_b_q <= odd[HW'(raddr_b_i[AW-1:1])];
        b_odd_q <= raddr_b_i[0];
      end
      assign rdata_b_o = b_odd_q ? odd_b_q : even_b_q;
    end else begin : g_no_port_b
      logic raddr_b_unused;
      assign raddr_b_unused = ^raddr_b_i;
      assign rdata_b_o = '0;
    end
  end
endmodule
