// The DRAM read port, shared by the fetch unit and the load engine. The
// fetch unit's requests go first: they are few (a beat holds a quarter of
// the instruction words opu1024's engines run, a load's beats many more),
// and an engine without its next instruction idles. DRAM answers in order,
// so a tag a request, in a queue, says whose each response is; with
// IN_FLIGHT requests unanswered, neither may ask (the DRAM's latency in
// cycles is far below it). The fetch unit takes every response; the load
// engine may hold its own back (rd_rsp_ready_o low: it waits in DRAM).
module opu_dram_reads
#(
  parameter int unsigned IN_FLIGHT = 256  // a power of two
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        fetch_valid_i,
  input  logic [31:0] fetch_addr_i,
  output logic        fetch_ready_o,
  output logic        fetch_rsp_o,
  input  logic        load_valid_i,
  input  logic [31:0] load_addr_i,
  output logic        load_ready_o,
  output logic        load_rsp_o,
  input  logic        load_rsp_ready_i,
  output logic        rd_req_valid_o,
  output logic [31:0] rd_req_addr_o,
  input  logic        rd_req_ready_i,
  input  logic        rd_rsp_valid_i,
  output logic        rd_rsp_ready_o
);
  logic [$clog2(IN_FLIGHT):0] count;
  logic full, empty_unused, for_fetch;

  assign full = count == ($clog2(IN_FLIGHT)+1)'(IN_FLIGHT);
  assign rd_req_valid_o = !full && (fetch_valid_i || load_valid_i);
  assign rd_req_addr_o = fetch_valid_i ? fetch_addr_i : load_addr_i;
  assign fetch_ready_o = !full && rd_req_ready_i;
  assign load_ready_o = !full && rd_req_ready_i && !fetch_valid_i;
  opu_fifo #(.WIDTH(1), .DEPTH(IN_FLIGHT)) u_tags (
    .clk_i, .rst_ni, .clear_i(1'b0), .push_i(rd_req_valid_o && rd_req_ready_i), .data_i(fetch_valid_i),
    .pop_i(rd_rsp_valid_i && rd_rsp_ready_o), .head_o(for_fetch), .empty_o(empty_unused), .count_o(count)
  );
  assign rd_rsp_ready_o = for_fetch || load_rsp_ready_i;
  assign fetch_rsp_o = rd_rsp_valid_i && for_fetch;
  assign load_rsp_o = rd_rsp_valid_i && !for_fetch;
endmodule
