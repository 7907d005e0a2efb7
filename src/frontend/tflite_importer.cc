//===- src/frontend/tflite_importer.cc - .tflite to Graph -----------------===//
//
// The driver: verify the buffer (tflite_verify.cc), check its indices
// (tflite_checks.cc), then import subgraph 0 (the model's entry; further
// subgraphs belong to control-flow operators, which opuc does not import):
// graph inputs, each operator through its converter, graph outputs, metadata.
// The finished graph goes through Verify() once more.
//
//===----------------------------------------------------------------------===//
#include "opuc/frontend/tflite.h"

#include "opuc/file_io/aligned_bytes.h"
#include "opuc/ir/verifier.h"
#include "support/fb_vector.h"
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

/// A metadata buffer as text: its bytes up to trailing NULs (converters pad
/// "1.14.0" with them), when those are printable ASCII.
std::optional<std::string> MetadataText(ByteSpan bytes) {
  size_t end = bytes.size;
  while (end > 0 && bytes.data[end - 1] == 0) --end;
  std::string text(reinterpret_cast<const char*>(bytes.data), end);
  for (char c : text)
    if (c < 0x20 || c > 0x7e) return std::nullopt;  // ASCII: a negative char is not printable
  return text;
}

class Importer {
 public:
  Importer(std::shared_ptr<const void> owner, const uint8_t* file, const tfl::Model& model)
      : file_(file),
        model_(model),
        subgraph_(*model.subgraphs()->Get(0)),
        tensors_(std::move(owner), file, model, subgraph_) {}

  Expected<TfliteImport> Run() &&;

 private:
  Status ImportInputs();
  Status ImportOperator(flatbuffers::uoffset_t index, const std::vector<OperatorCodeInfo>& codes);
  Status ImportOutputs();
  void ImportMetadata(Graph* graph) const;

  const uint8_t* file_;
  const tfl::Model& model_;
  const tfl::SubGraph& subgraph_;
  TfliteTensors tensors_;
};

Status Importer::ImportInputs() {
  const std::vector<int32_t> inputs = CopyScalars(subgraph_.inputs());
  for (size_t i = 0; i < inputs.size(); ++i) {
    Expected<TensorId> id = tensors_.DefineInput(inputs[i]);
    if (!id.ok()) return id.status().WithContext(Cat("graph input ", i));
    tensors_.graph().inputs.push_back(*id);
  }
  return OkStatus();
}

Status Importer::ImportOperator(flatbuffers::uoffset_t index,
                                const std::vector<OperatorCodeInfo>& codes) {
  const tfl::Operator& op = *subgraph_.operators()->Get(index);
  const OperatorCodeInfo& code = codes[op.opcode_index()];
  Status status = [&]() -> Status {
    const Converter convert = FindConverter(code);
    if (convert) {
      OpContext ctx(tensors_, op, code.name);
      return convert(ctx);
    }
    if (code.builtin == static_cast<int32_t>(tfl::BuiltinOperator::CUSTOM))
      return Unsupported(Cat("custom operator '", code.custom_code,
                             "' is unknown; opuc imports the custom operator"
                             " Convolution2DTransposeBias only"));
    return Unsupported(Cat("opuc does not import ", code.name, " (builtin code ", code.builtin,
                           "); docs/tflite-importer.md lists the operators it does"));
  }();
  if (!status.ok()) return status.WithContext(Cat("operator ", index, " (", code.name, ")"));
  return OkStatus();
}

Status Importer::ImportOutputs() {
  const std::vector<int32_t> outputs = CopyScalars(subgraph_.outputs());
  for (size_t i = 0; i < outputs.size(); ++i) {
    Expected<TensorId> id = tensors_.Use(outputs[i]);
    if (!id.ok()) return id.status().WithContext(Cat("graph output ", i));
    tensors_.graph().outputs.push_back(*id);
  }
  return OkStatus();
}

void Importer::ImportMetadata(Graph* graph) const {
  graph->metadata.emplace_back("source_format", "tflite");
  if (model_.description() && model_.description()->size())
    graph->metadata.emplace_back("tflite.description", model_.description()->str());
  if (!model_.metadata()) return;
  for (const tfl::Metadata* entry : *model_.metadata()) {
    const std::string name = entry->name() ? entry->name()->str() : "";
    const ByteSpan bytes = BufferBytes(model_, file_, entry->buffer());
    std::optional<std::string> text = MetadataText(bytes);
    graph->metadata.emplace_back(Cat("tflite.", name),
                                 text ? *text : Cat("<", bytes.size, " bytes, not text>"));
  }
}

Expected<TfliteImport> Importer::Run() && {
  const std::vector<OperatorCodeInfo> codes = ReadOperatorCodes(model_);
  TfliteImport result;
  const flatbuffers::uoffset_t num_ops = subgraph_.operators() ? subgraph_.operators()->size() : 0;
  for (flatbuffers::uoffset_t i = 0; i < num_ops; ++i)
    ++result.source_operators[codes[subgraph_.operators()->Get(i)->opcode_index()].name];

  OPUC_RETURN_IF_ERROR(ImportInputs());
  for (flatbuffers::uoffset_t i = 0; i < num_ops; ++i)
    OPUC_RETURN_IF_ERROR(ImportOperator(i, codes));
  OPUC_RETURN_IF_ERROR(ImportOutputs());

  result.graph = std::move(tensors_.graph());
  result.graph.name =
      subgraph_.name() && subgraph_.name()->size() ? subgraph_.name()->str() : std::string("main");
  ImportMetadata(&result.graph);
  // Each node was checked as it was added; this also finds tensors that no
  // operator defines and that nothing reads.
  OPUC_RETURN_IF_ERROR(Verify(result.graph));
  return result;
}

Expected<TfliteImport> ReadAligned(std::shared_ptr<const void> owner, const uint8_t* data,
                                   size_t size) {
  OPUC_RETURN_IF_ERROR(VerifyTfliteBuffer(data, size));
  const tfl::Model& model = *tfl::GetModel(data);
  OPUC_RETURN_IF_ERROR(CheckTfliteModel(model, size));
  return Importer(std::move(owner), data, model).Run();
}

}  // namespace

Expected<TfliteImport> ReadTflite(std::shared_ptr<const void> owner, const uint8_t* data,
                                  size_t size, std::string_view source_name) {
  return ReadInPlace(std::move(owner), data, size, source_name, ReadAligned);
}

Expected<TfliteImport> ReadTflite(const std::vector<uint8_t>& bytes, std::string_view source_name) {
  Expected<AlignedBytes> copy = CopyAligned(bytes.data(), bytes.size());
  if (!copy.ok()) return copy.status().WithContext(source_name);
  return ReadTflite(copy->owner, copy->data(), copy->size, source_name);
}

}  // namespace opuc
