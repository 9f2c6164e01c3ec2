// The scene file's "tets" section (stable Neo-Hookean solids): values per tet or one for
// all, Young's modulus and Poisson's ratio, masses from a density, actuation, errors
// naming the JSON path, and a stable save.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "families/tets/tet_neohookean.h"
#include "nudge/parameters.h"
#include "nudge/scene.h"
#include "temp_dir.h"

using namespace nudge;

namespace {

// Six particles: a unit corner tet 0-1-2-3, a second tet 1-2-3-4 beside it, and particle 5
// on the plane of 0, 1, 2.
std::string block_file(std::string_view tets, std::string_view particles_extra = "", std::string_view extra = "") {
  return std::string(R"({"format": "nudge-scene", "version": 1,
 "simulation": {"dt": 0.01, "steps": 3},
 "particles": {"position": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [2, 2, 0]])") +
         std::string(particles_extra) + "},\n \"tets\": " + std::string(tets) + std::string(extra) + "}";
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

TEST_CASE("tet scene file: the scene file's tets") {
  SUBCASE("scalars apply to every tet, arrays per tet, defaults otherwise") {
    Result<Scene> scene = parse_scene(
        block_file(R"({"indices": [[0, 1, 2, 3], [1, 4, 2, 3]], "k_mu": 500, "k_lambda": [100, 200]})"), "s.json");
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    CHECK(scene->tets == std::vector<int>{0, 1, 2, 3, 1, 4, 2, 3});
    CHECK(scene->params[ParamId::TetMu].value == std::vector<double>{500, 500});
    CHECK(scene->params[ParamId::TetLambda].value == std::vector<double>{100, 200});
    CHECK(scene->params[ParamId::TetDamping].value == std::vector<double>{0, 0});
    CHECK(scene->tet_channel == std::vector<int>{-1, -1});
    CHECK(scene->tet_actuation == std::vector<double>{0, 0});
    CHECK(scene->params[ParamId::Mass].value == std::vector<double>(6, 1.0));
    CHECK(param_name(ParamId::TetLambda) == "tet_lambda");
    CHECK(param_from_name("tet_damping") == ParamId::TetDamping);
  }
  SUBCASE("Young's modulus and Poisson's ratio become k_mu and k_lambda") {
    Result<Scene> scene = parse_scene(
        block_file(R"({"indices": [[0, 1, 2, 3], [1, 4, 2, 3]], "young": [1e5, 2e5], "poisson": 0.3})"), "s.json");
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    for (int t = 0; t < 2; ++t) {
      const double e = t == 0 ? 1e5 : 2e5, mu = e / 2.6, lambda = e * 0.3 / (1.3 * 0.4);
      CHECK(scene->params[ParamId::TetMu].value[t] == doctest::Approx(4.0 / 3.0 * mu).epsilon(1e-14));
      CHECK(scene->params[ParamId::TetLambda].value[t] == doctest::Approx(lambda + 5.0 / 6.0 * mu).epsilon(1e-14));
    }
  }
  SUBCASE("a density gives the tets' particles their lumped masses") {
    Result<Scene> scene =
        parse_scene(block_file(R"({"indices": [[0, 1, 2, 3], [1, 4, 2, 3]], "density": 600})"), "s.json");
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    // Volumes 1/6 and 1/3: a quarter of 600 V to each corner, summed.
    const double a = 600.0 / 6 / 4, b = 600.0 / 3 / 4;
    const std::vector<double>& m = scene->params[ParamId::Mass].value;
    CHECK(m[0] == doctest::Approx(a));
    for (int i : {1, 2, 3}) CHECK(m[i] == doctest::Approx(a + b));
    CHECK(m[4] == doctest::Approx(b));
    CHECK(m[5] == 1.0);  // in no tet: the default
  }
  SUBCASE("actuation: a channel per tet or one for all, and a gain") {
    Result<Scene> scene = parse_scene(
        block_file(R"({"indices": [[0, 1, 2, 3], [1, 4, 2, 3]], "channel": [1, -1], "actuation": [0.5, 2]})", "",
                   R"(, "controls": {"channels": 2, "values": 0.25})"),
        "s.json");
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    CHECK(scene->tet_channel == std::vector<int>{1, -1});
    CHECK(scene->tet_actuation == std::vector<double>{0.5, 2});
    Result<Scene> all =
        parse_scene(block_file(R"({"indices": [[0, 1, 2, 3], [1, 4, 2, 3]], "channel": 0, "actuation": 1})", "",
                               R"(, "controls": {"channels": 1})"),
                    "s.json");
    REQUIRE_MESSAGE(all.ok(), (all.ok() ? "" : all.error().message));
    CHECK(all->tet_channel == std::vector<int>{0, 0});
  }
  SUBCASE("errors name the JSON path") {
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 6]]})"), "s.json")) ==
          "s.json: $.tets.indices[0][3]: found 6; expected a particle index in [0, 6)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2]]})"), "s.json")) ==
          "s.json: $.tets.indices[0]: found an array of 3 values; expected a quadruple [a, b, c, d] of particle "
          "indices");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3], [1, 4, 2, 1]]})"), "s.json")) ==
          "s.json: $.tets.indices[1]: found particles 1, 4, 2, 1; expected four different particles");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3], [0, 1, 2, 5]]})"), "s.json")) ==
          "s.json: tets.indices[1]: found particles 0, 1, 2, 5 flat in the initial positions (volume 0); expected a "
          "tetrahedron of positive volume, its rest shape");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 2, 1, 3]]})"), "s.json")) ==
          "s.json: tets.indices[0]: found particles 0, 2, 1, 3 inverted in the initial positions (volume "
          "-0.16666666666666666); expected a positively oriented tetrahedron, (x1 - x0) . ((x2 - x0) x (x3 - x0)) "
          "> 0 (swap two corners)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "k_lambda": 0})"), "s.json")) ==
          "s.json: $.tets.k_lambda: found 0; expected a k_lambda > 0 (Pa)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "k_mu": [1, 2]})"), "s.json")) ==
          "s.json: $.tets.k_mu: found an array of 2 values; expected a number or an array of 1 numbers (one per tet)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "k_damp": -1})"), "s.json")) ==
          "s.json: $.tets.k_damp: found -1; expected a k_damp >= 0 (Pa s)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "young": 1e5, "poisson": 0.5})"), "s.json")) ==
          "s.json: $.tets.poisson: found 0.5; expected a Poisson's ratio in (-1, 0.5)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "young": 0, "poisson": 0.3})"), "s.json")) ==
          "s.json: $.tets.young: found 0; expected a Young's modulus > 0 (Pa)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "young": 1e5})"), "s.json")) ==
          "s.json: $.tets.young: found \"young\" without \"poisson\"; expected both (Young's modulus and Poisson's "
          "ratio)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "young": 1e5, "poisson": 0.3, "k_mu": 5})"),
                               "s.json")) ==
          "s.json: $.tets.k_mu: found both \"k_mu\" and \"young\"; expected k_mu and k_lambda, or young and poisson");
    CHECK(error_of(
              parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "density": 600})", R"(, "mass": 2)"), "s.json")) ==
          "s.json: $.tets.density: found a density while particles.mass is also given; expected one of them (the "
          "density sets the masses of the tets' particles, and the file saved back holds those masses)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "density": -1})"), "s.json")) ==
          "s.json: $.tets.density: found -1; expected a density > 0 (kg/m^3)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "channel": [0]})"), "s.json")) ==
          "s.json: $.tets.channel[0]: found 0; expected -1 (passive; controls.channels is 0, so no tet can be driven)");
    CHECK(error_of(parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]], "stiffness": 1})"), "s.json"))
              .find("$.tets.stiffness: unknown key 'stiffness'") != std::string::npos);
  }
  SUBCASE("check_scene refuses what the engine cannot run") {
    Result<Scene> loaded = parse_scene(block_file(R"({"indices": [[0, 1, 2, 3]]})"), "s.json");
    REQUIRE(loaded.ok());
    Scene scene = *loaded;
    scene.tets[3] = 9;
    CHECK(check_scene(scene).error().message == "tets.indices[0][3]: found 9; expected a particle index in [0, 6)");
    scene = *loaded;
    scene.tet_channel[0] = 0;
    CHECK(check_scene(scene).error().message ==
          "tets.channel[0]: found 0; expected -1 (passive) or a channel in [0, 0)");
    scene = *loaded;
    scene.params[ParamId::TetLambda].value[0] = 0;
    CHECK(check_scene(scene).error().message == "tets.k_lambda: found 0; expected a k_lambda > 0 (Pa)");
  }
  SUBCASE("save, load and save again give the same bytes") {
    test::TempDir dir("tet-test");
    Result<Scene> first = parse_scene(
        block_file(R"({"indices": [[0, 1, 2, 3], [1, 4, 2, 3]], "young": [1e5, 3.3e4], "poisson": [0.3, 0.45],
                      "k_damp": [1.5, 2], "channel": [0, -1], "actuation": [0.3, 0], "density": 1100})",
                   "", R"(, "controls": {"channels": 1, "values": 0.1})"),
        dir.path / "a.json");
    REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().message));
    REQUIRE(save_scene(*first, dir.path / "b.json").ok());
    Result<Scene> second = load_scene(dir.path / "b.json");
    REQUIRE_MESSAGE(second.ok(), (second.ok() ? "" : second.error().message));
    CHECK(second->tets == first->tets);
    CHECK(second->tet_channel == first->tet_channel);
    CHECK(second->tet_actuation == first->tet_actuation);
    for (int i = 0; i < kParamCount; ++i) CHECK(second->params.items[i].value == first->params.items[i].value);
    REQUIRE(save_scene(*second, dir.path / "c.json").ok());
    const std::string b = read_text(dir.path / "b.json");
    CHECK(b == read_text(dir.path / "c.json"));
    // Saved as what the scene holds: k_mu, k_lambda and masses, not young, poisson or density.
    CHECK(b.find("\"k_lambda\"") != std::string::npos);
    CHECK(b.find("\"young\"") == std::string::npos);
    CHECK(b.find("\"density\"") == std::string::npos);
  }
}
