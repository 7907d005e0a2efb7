// ParsePreprocess and FormatPreprocess: the --preprocess text.
#include <doctest/doctest.h>

#include <string>

#include "opuc/image/preprocess.h"

namespace opuc {
namespace {

std::string ErrorOf(const std::string& text) {
  Expected<PreprocessOptions> options = ParsePreprocess(text);
  REQUIRE_FALSE(options.ok());
  CHECK(options.status().code() == StatusCode::kInvalidArgument);
  return options.status().message();
}

TEST_CASE("every key is read") {
  Expected<PreprocessOptions> o =
      ParsePreprocess("size=128x96,scale=0.0078431373,offset=-1,order=bgr");
  REQUIRE(o.ok());
  CHECK(o->height == 128);
  CHECK(o->width == 96);
  CHECK(o->scale == 0.0078431373);
  CHECK(o->offset == -1.0);
  CHECK(o->order == ChannelOrder::kBgr);
}

TEST_CASE("keys not named keep their defaults, blanks and quotients are fine") {
  PreprocessOptions defaults;
  defaults.height = 224;
  defaults.width = 224;
  Expected<PreprocessOptions> o = ParsePreprocess(" scale = 2/255 , offset=-1 ", defaults);
  REQUIRE(o.ok());
  CHECK(o->height == 224);
  CHECK(o->width == 224);
  CHECK(o->scale == 2.0 / 255.0);
  CHECK(o->offset == -1.0);
  CHECK(o->order == ChannelOrder::kRgb);

  Expected<PreprocessOptions> empty = ParsePreprocess("", defaults);
  REQUIRE(empty.ok());
  CHECK(*empty == defaults);
  // The defaults of PreprocessOptions: [0, 1], rgb, size unset.
  CHECK(PreprocessOptions().scale == 1.0 / 255.0);
  CHECK(PreprocessOptions().offset == 0.0);
  CHECK(PreprocessOptions().height == 0);
}

TEST_CASE("errors name the key at fault") {
  CHECK(ErrorOf("colour=rgb") ==
        "preprocess: unknown key 'colour' (keys: size, scale, offset, order)");
  CHECK(ErrorOf("size=128") ==
        "preprocess: size: '128' is not HxW, two whole numbers from 1 to 16384 (e.g. "
        "128x128: height x width)");
  CHECK(ErrorOf("size=0x5").find("preprocess: size: '0x5'") == 0);
  CHECK(ErrorOf("size=12x").find("preprocess: size: '12x'") == 0);
  CHECK(ErrorOf("size=99999x2").find("preprocess: size: '99999x2'") == 0);
  CHECK(ErrorOf("scale=abc") ==
        "preprocess: scale: 'abc' is not a finite number (a decimal such as 0.5 or -1, or a "
        "quotient such as 2/255)");
  CHECK(ErrorOf("scale=inf").find("preprocess: scale: 'inf'") == 0);
  CHECK(ErrorOf("offset=1/0").find("preprocess: offset: '1/0'") == 0);
  CHECK(ErrorOf("offset=1e999").find("preprocess: offset: '1e999'") == 0);
  CHECK(ErrorOf("order=rgba") == "preprocess: order: 'rgba' is not rgb or bgr");
  CHECK(ErrorOf("scale=1,scale=2") == "preprocess: key 'scale' is given twice");
  CHECK(ErrorOf("size=1x1,rgb") ==
        "preprocess: 'rgb' is not key=value (keys: size, scale, offset, order)");
  CHECK(ErrorOf("size=1x1,").find("preprocess: '' is not key=value") == 0);
}

TEST_CASE("FormatPreprocess writes what ParsePreprocess reads back") {
  PreprocessOptions o;
  o.height = 128;
  o.width = 64;
  o.scale = 0.5;
  o.offset = -1.0;
  o.order = ChannelOrder::kBgr;
  CHECK(FormatPreprocess(o) == "size=128x64,scale=0.5,offset=-1.0,order=bgr");
  o.scale = 2.0 / 255.0;
  Expected<PreprocessOptions> back = ParsePreprocess(FormatPreprocess(o));
  REQUIRE(back.ok());
  CHECK(*back == o);
  CHECK(FormatPreprocess(PreprocessOptions()).find("scale=") == 0);  // no size when unset
}

}  // namespace
}  // namespace opuc
