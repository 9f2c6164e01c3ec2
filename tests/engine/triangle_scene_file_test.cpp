// The scene file's "triangles" section (cloth membranes) and "simulation.wind": values
// per triangle or one for all, errors naming the JSON path, and a stable save.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/scene.h"
#include "temp_dir.h"

using namespace nudge;

namespace {

std::string sheet_file(std::string_view triangles, std::string_view simulation_extra = "") {
  return std::string(R"({"format": "nudge-scene", "version": 1,
 "simulation": {"dt": 0.01, "steps": 10)") +
         std::string(simulation_extra) + R"(},
 "particles": {"position": [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1], [2, 0, 0]]},
 "triangles": )" +
         std::string(triangles) + "}";
}

std::string error_of(const Result<Scene>& result) {
  REQUIRE_FALSE(result.ok());
  return result.error().message;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("triangle scene file: the scene file's triangles and wind") {
  SUBCASE("scalars apply to every triangle, arrays per triangle, defaults otherwise") {
    Result<Scene> scene =
        parse_scene(sheet_file(R"({"indices": [[0, 1, 3], [0, 3, 2]], "stiffness": 500, "area_stiffness": [100, 200],
                      "lift": 3})",
                               R"(, "wind": [1, 0, -2])"),
                    "s.json");
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    CHECK(scene->triangles == std::vector<int>{0, 1, 3, 0, 3, 2});
    CHECK(scene->params[ParamId::TriangleStiffness].value == std::vector<double>{500, 500});
    CHECK(scene->params[ParamId::TriangleAreaStiffness].value == std::vector<double>{100, 200});
    CHECK(scene->params[ParamId::TriangleDamping].value == std::vector<double>{0, 0});
    CHECK(scene->params[ParamId::TriangleDrag].value == std::vector<double>{0, 0});
    CHECK(scene->params[ParamId::TriangleLift].value == std::vector<double>{3, 3});
    CHECK(scene->params[ParamId::Wind].value == std::vector<double>{1, 0, -2});
    CHECK(param_name(ParamId::TriangleAreaStiffness) == "triangle_area_stiffness");
    CHECK(param_from_name("wind") == ParamId::Wind);
  }
  SUBCASE("errors name the JSON path") {
    CHECK(error_of(parse_scene(sheet_file(R"({"indices": [[0, 1, 5]]})"), "s.json")) ==
          "s.json: $.triangles.indices[0][2]: found 5; expected a particle index in [0, 5)");
    CHECK(
        error_of(parse_scene(sheet_file(R"({"indices": [[0, 1]]})"), "s.json")) ==
        "s.json: $.triangles.indices[0]: found an array of 2 values; expected a triple [a, b, c] of particle indices");
    CHECK(error_of(parse_scene(sheet_file(R"({"indices": [[0, 1, 3], [2, 2, 3]]})"), "s.json")) ==
          "s.json: $.triangles.indices[1]: found particles 2, 2, 3; expected three different particles");
    CHECK(error_of(parse_scene(sheet_file(R"({"indices": [[0, 1, 4]]})"), "s.json")) ==
          "s.json: triangles.indices[0]: found particles 0, 1, 4 on one line in the initial positions (area 0); "
          "expected a triangle of positive area, its rest shape");
    CHECK(error_of(parse_scene(sheet_file(R"({"indices": [[0, 1, 3]], "damping": -1})"), "s.json")) ==
          "s.json: $.triangles.damping: found -1; expected a damping >= 0 (N s/m)");
    CHECK(error_of(parse_scene(sheet_file(R"({"indices": [[0, 1, 3]], "drag": [1, 2]})"), "s.json")) ==
          "s.json: $.triangles.drag: found an array of 2 values; expected a number or an array of 1 numbers (one per "
          "triangle)");
    CHECK(error_of(parse_scene(sheet_file(R"({"indices": [[0, 1, 3]], "stretch": 1})"), "s.json"))
              .find("$.triangles.stretch") != std::string::npos);
    CHECK(error_of(parse_scene(sheet_file(R"({"indices": [[0, 1, 3]]})", R"(, "wind": [1, 0])"), "s.json")) ==
          "s.json: $.simulation.wind: found an array of 2 values; expected [x, y, z]: a finite velocity (m/s)");
  }
  SUBCASE("save, load and save again give the same bytes") {
    test::TempDir dir("triangle-test");
    Result<Scene> first =
        parse_scene(sheet_file(R"({"indices": [[0, 1, 3], [0, 3, 2]], "stiffness": [500, 0.1], "area_stiffness": 700,
                      "damping": [1.5, 2], "drag": 0.25, "lift": [3, 1e-7]})",
                               R"(, "wind": [1, 0.1, -2])"),
                    dir.path / "a.json");
    REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().message));
    REQUIRE(save_scene(*first, dir.path / "b.json").ok());
    Result<Scene> second = load_scene(dir.path / "b.json");
    REQUIRE_MESSAGE(second.ok(), (second.ok() ? "" : second.error().message));
    CHECK(second->triangles == first->triangles);
    for (int i = 0; i < kParamCount; ++i) CHECK(second->params.items[i].value == first->params.items[i].value);
    REQUIRE(save_scene(*second, dir.path / "c.json").ok());
    const std::string b = read_text(dir.path / "b.json");
    CHECK(b == read_text(dir.path / "c.json"));
    CHECK(b.find("\"triangles\"") != std::string::npos);
    CHECK(b.find("\"wind\"") != std::string::npos);
  }
}
