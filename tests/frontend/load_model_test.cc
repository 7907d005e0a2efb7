//===- tests/frontend/load_model_test.cc - Files and format detection -----===//
#include "opuc/frontend/load_model.h"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "frontend/test_graphs.h"
#include "frontend/tflite_builder.h"
#include "opuc/opug/opug.h"

namespace opuc {
namespace {

namespace fs = std::filesystem;

/// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "opuc_frontend_XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string File(const std::string& name, const std::string& contents) const {
    const std::string path = (path_ / name).string();
    std::ofstream(path, std::ios::binary) << contents;
    return path;
  }
  std::string Path(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

std::string Bytes(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

TEST_CASE("LoadModel recognises .opug by content, whatever the name") {
  TempDir dir;
  const std::string path = dir.File("model.bin", Bytes(WriteOpug(test::MakeTinyGraph()).value()));
  Expected<LoadedModel> model = LoadModel(path);
  REQUIRE_MESSAGE(model.ok(), model.status().ToString());
  CHECK(model->format == ModelFormat::kOpug);
  CHECK(ModelFormatName(model->format) == "opug");
  test::CheckSameGraph(test::MakeTinyGraph(), model->graph);
  // Zero-copy from the file buffer: aligned, and alive after LoadModel returns.
  CHECK(model->graph.tensor(1).constant->IsAligned(16));
  CHECK(model->graph.tensor(1).constant->As<float>()[0] == -4.0f);
}

TEST_CASE("LoadModel recognises JSON text by its first non-blank character" *
          test::NeedsJsonReader()) {
  TempDir dir;
  const std::string path = dir.File("model.txt", std::string("\n \t") + test::kTwoNodeJson);
  Expected<LoadedModel> model = LoadModel(path);
  REQUIRE_MESSAGE(model.ok(), model.status().ToString());
  CHECK(model->format == ModelFormat::kOpugJson);
  CHECK(ModelFormatName(model->format) == "opug.json");
  CHECK(model->graph.nodes.size() == 2);
}

TEST_CASE("LoadModel imports TFLite by content and reports its operators by TFLite name") {
  TempDir dir;
  test::TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 2});
  const int32_t r = b.Tensor("r", {1, 2});
  const int32_t y = b.Tensor("y", {1, 2});
  b.Op(test::tfl::BuiltinOperator::RELU, {x}, {r});
  b.Op(test::tfl::BuiltinOperator::ADD, {r, x}, {y});
  b.Output(y);
  const std::string path = dir.File("m.dat", Bytes(b.Finish()));
  Expected<LoadedModel> model = LoadModel(path);
  REQUIRE_MESSAGE(model.ok(), model.status().ToString());
  CHECK(model->format == ModelFormat::kTflite);
  CHECK(ModelFormatName(model->format) == "tflite");
  CHECK(model->source_operators == std::map<std::string, int>{{"ADD", 1}, {"RELU", 1}});
  CHECK(model->graph.nodes.size() == 2);

  const std::string broken = dir.File("broken.dat", std::string("\x1c\0\0\0TFL3\0\0\0\0", 12));
  CHECK(LoadModel(broken).status().message() ==
        broken +
            ": FlatBuffers verification failed in the root offset or the Model table's header: the"
            " file is truncated or corrupt (an offset, table, vector or string there lies outside"
            " the file)");
  // No identifier, but the extension says TFLite, so the importer says why.
  const std::string old = dir.File("old.tflite", "0123456789");
  CHECK(LoadModel(old).status().message() ==
        old + ": file identifier is \"4567\"; expected \"TFL3\" (not a .tflite file)");
}

TEST_CASE("LoadModel reports a .opug's operators by IR name") {
  TempDir dir;
  const std::string path = dir.File("tiny.opug", Bytes(WriteOpug(test::MakeTinyGraph()).value()));
  Expected<LoadedModel> model = LoadModel(path);
  REQUIRE_MESSAGE(model.ok(), model.status().ToString());
  CHECK(model->source_operators == std::map<std::string, int>{{"concat", 1},
                                                              {"conv2d", 1},
                                                              {"max_pool2d", 2},
                                                              {"mean", 1},
                                                              {"relu", 1},
                                                              {"softmax", 1}});
}

TEST_CASE("LoadModel: empty, unknown, missing files and directories") {
  TempDir dir;
  const std::string empty = dir.File("empty.opug", "");
  CHECK(LoadModel(empty).status().message() ==
        empty + ": file is empty; expected a model (.opug, .opug.json or .tflite)");
  CHECK(LoadModel(empty).status().code() == StatusCode::kInvalidArgument);

  const std::string junk = dir.File("junk", "hello, world");
  const Status unknown = LoadModel(junk).status();
  CHECK(unknown.code() == StatusCode::kInvalidArgument);
  CHECK(unknown.message().rfind(junk + ": not a recognised model (12 bytes)", 0) == 0);

  // A short file named .opug is read as one, which says what is wrong.
  const std::string short_opug = dir.File("short.opug", "abc");
  CHECK(LoadModel(short_opug).status().message() ==
        short_opug + ": 3 bytes is too short for a .opug file (at least 8)");

  const std::string missing = dir.Path("missing.opug");
  const Status not_there = LoadModel(missing).status();
  CHECK(not_there.code() == StatusCode::kIoError);
  CHECK(not_there.message() == missing + ": cannot open: No such file or directory");

  CHECK(LoadModel(dir.Path("")).status().message().find("not a regular file") != std::string::npos);

  // A named pipe with no writer: open() would block; the reader refuses it.
  const std::string pipe = dir.Path("pipe.tflite");
  REQUIRE(mkfifo(pipe.c_str(), 0600) == 0);
  CHECK(LoadModel(pipe).status().message() == pipe + ": not a regular file");
}

TEST_CASE("SaveOpugFile and LoadOpugFile: the suffix picks the form") {
  TempDir dir;
  const Graph g = test::MakeTinyGraph();
  for (const char* name : {"tiny.opug", "tiny.opug.json", "tiny.json"}) {
    INFO(name);
    const std::string path = dir.Path(name);
    const Status saved = SaveOpugFile(g, path);
    REQUIRE_MESSAGE(saved.ok(), saved.ToString());
    std::ifstream file(path, std::ios::binary);
    const char first = static_cast<char>(file.get());
    CHECK((first == '{') == IsOpugJsonPath(path));
    Expected<Graph> back = LoadOpugFile(path);
    if (IsOpugJsonPath(path) && !OpugJsonReaderAvailable()) {
      CHECK(back.status().code() == StatusCode::kUnsupported);
      continue;
    }
    REQUIRE_MESSAGE(back.ok(), back.status().ToString());
    test::CheckSameGraph(g, *back);
  }
  CHECK(IsOpugJsonPath("a.opug.json"));
  CHECK(IsOpugJsonPath("a.json"));
  CHECK_FALSE(IsOpugJsonPath("a.opug"));
  CHECK_FALSE(IsOpugJsonPath("json"));

  const std::string unwritable = dir.Path("no/such/dir/x.opug");
  CHECK(SaveOpugFile(g, unwritable).message() ==
        unwritable + ": cannot create: No such file or directory");
  CHECK(LoadOpugFile(dir.Path("nope.opug")).status().message() ==
        dir.Path("nope.opug") + ": cannot open: No such file or directory");
}

// Where size_t has 32 bits (armhf) no object exceeds 2 GiB; a sparse file
// that large costs no disk space. Not listed on 64-bit targets.
TEST_CASE("a file larger than a 32-bit target can hold is refused by its size" *
          doctest::skip(sizeof(size_t) > 4)) {
  TempDir dir;
  const std::string path = dir.File("huge.opug", "");
  fs::resize_file(path, uintmax_t{1} << 31);
  const Status status = LoadOpugFile(path).status();
  CHECK(status.code() == StatusCode::kIoError);
  CHECK(status.message() == path +
                                ": 2147483648 bytes is more than this build can hold in "
                                "memory (at most 2147483647)");
}

}  // namespace
}  // namespace opuc
