#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

#include "studio/document.h"
#include "studio/example_guide.h"
#include "studio_test_scenes.h"

using nudge::studio_test::source_dir;
namespace studio = nudge::studio;

// The welcome panel shows every example with one line on what to try: a scene shipped
// without a line, or a line left for a scene that is gone, fails here.
TEST_CASE("example guide: every shipped example has one line on what to try, and nothing else does") {
  std::set<std::string> files;
  for (const std::filesystem::path& scene : studio::list_example_scenes(source_dir() / "scenes"))
    files.insert(scene.stem().string());
  REQUIRE(files.size() >= 20);
  std::set<std::string> guided;
  for (const studio::ExampleGuide& guide : studio::example_guides()) {
    const std::string stem(guide.stem);
    CAPTURE(stem);
    CHECK(guided.insert(stem).second);  // once each
    CHECK(files.count(stem) == 1);
    CHECK(!guide.try_this.empty());
    CHECK(guide.try_this.size() <= 110);  // one line of the welcome panel
    CHECK(!studio::audience_title(guide.audience).empty());
    CHECK(studio::example_guide(stem) == &guide);
  }
  for (const std::string& file : files) {
    CAPTURE(file);  // a shipped example without a guide line
    CHECK(guided.count(file) == 1);
  }
  CHECK(studio::example_guide("no such example") == nullptr);
}
