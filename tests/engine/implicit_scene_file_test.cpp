// The scene file's "simulation.integrator" and "simulation.implicit": read, checked,
// written only when the integrator is not the default (so older scenes save unchanged),
// and a stable save.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "../source_dir.h"
#include "nudge/scene.h"
#include "implicit_test_scenes.h"
#include "temp_dir.h"

using namespace nudge;

namespace {

std::string chain_file(std::string_view simulation_extra) {
  return std::string(R"({"format": "nudge-scene", "version": 1,
 "simulation": {"dt": 0.01, "steps": 10)") +
         std::string(simulation_extra) + R"(},
 "particles": {"position": [[0, 0, 0], [1, 0, 0], [2, 0, 0]], "pinned": [0]},
 "springs": {"pairs": [[0, 1], [1, 2]], "stiffness": 1e5}})";
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

TEST_CASE("implicit scene file: the integrator and its solver settings") {
  SUBCASE("semi-implicit by default; implicit_euler with the solver's defaults or its own") {
    Result<Scene> plain = parse_scene(chain_file(""), "s.json");
    REQUIRE_MESSAGE(plain.ok(), (plain.ok() ? "" : plain.error().message));
    CHECK(plain->settings.integrator == Integrator::SemiImplicitEuler);

    Result<Scene> defaults = parse_scene(chain_file(R"(, "integrator": "implicit_euler")"), "s.json");
    REQUIRE(defaults.ok());
    CHECK(defaults->settings.integrator == Integrator::ImplicitEuler);
    CHECK(defaults->settings.implicit == ImplicitSettings{});

    Result<Scene> tuned = parse_scene(
        chain_file(R"(, "integrator": "implicit_euler", "implicit": {"newton_iterations": 7, "newton_tolerance": 1e-9,
                      "linear_iterations": 31, "linear_tolerance": 1e-12})"),
        "s.json");
    REQUIRE_MESSAGE(tuned.ok(), (tuned.ok() ? "" : tuned.error().message));
    CHECK(tuned->settings.implicit.newton_iterations == 7);
    CHECK(tuned->settings.implicit.newton_tolerance == 1e-9);
    CHECK(tuned->settings.implicit.linear_iterations == 31);
    CHECK(tuned->settings.implicit.linear_tolerance == 1e-12);
    CHECK(integrator_name(Integrator::ImplicitEuler) == "implicit_euler");
    CHECK(integrator_from_name("semi_implicit_euler") == Integrator::SemiImplicitEuler);
    CHECK(integrator_from_name("rk4") == Integrator::RungeKutta4);
    CHECK(integrator_name(Integrator::RungeKutta4) == "rk4");
    CHECK_FALSE(integrator_from_name("verlet").has_value());
  }
  SUBCASE("errors name the JSON path") {
    CHECK(error_of(parse_scene(chain_file(R"(, "integrator": "verlet")"), "s.json")) ==
          "s.json: $.simulation.integrator: found \"verlet\"; expected \"semi_implicit_euler\", \"implicit_euler\" or "
          "\"rk4\"");
    // RK4 steps articulations only: a chain of particles is refused, not stepped by Euler.
    const std::string rk4 = error_of(parse_scene(chain_file(R"(, "integrator": "rk4")"), "s.json"));
    CHECK_MESSAGE(rk4.find("simulation.integrator: found rk4 in a scene with no articulations; expected "
                           "semi_implicit_euler (rk4 steps articulations only)") != std::string::npos,
                  rk4);
    CHECK(error_of(parse_scene(chain_file(R"(, "integrator": 1)"), "s.json")).find("$.simulation.integrator") !=
          std::string::npos);
    CHECK(
        error_of(parse_scene(chain_file(R"(, "implicit": {"newton_iterations": 5})"), "s.json"))
            .find("$.simulation.implicit: found an object; expected no \"implicit\" settings unless \"integrator\" is "
                  "\"implicit_euler\"") != std::string::npos);
    const std::string implicit = R"(, "integrator": "implicit_euler", "implicit": )";
    CHECK(error_of(parse_scene(chain_file(implicit + R"({"newton_iterations": 0})"), "s.json")) ==
          "s.json: $.simulation.implicit.newton_iterations: found 0; expected a count of Newton iterations per step "
          "in [1, 100000]");
    CHECK(error_of(parse_scene(chain_file(implicit + R"({"newton_tolerance": -1e-6})"), "s.json")) ==
          "s.json: $.simulation.implicit.newton_tolerance: found -1e-06; expected a velocity tolerance > 0 (m/s)");
    CHECK(error_of(parse_scene(chain_file(implicit + R"({"linear_iterations": 2.5})"), "s.json"))
              .find("$.simulation.implicit.linear_iterations") != std::string::npos);
    CHECK(error_of(parse_scene(chain_file(implicit + R"({"linear_tolerance": 1})"), "s.json")) ==
          "s.json: $.simulation.implicit.linear_tolerance: found 1; expected a relative tolerance in (0, 1)");
    CHECK(error_of(parse_scene(chain_file(implicit + R"({"newton_steps": 3})"), "s.json"))
              .find("$.simulation.implicit.newton_steps") != std::string::npos);
  }
  SUBCASE("check_scene rejects bad settings built in code") {
    Scene scene = test::make_stiff_chain(4, 1e4, 1e-3, 10, Integrator::ImplicitEuler);
    REQUIRE(check_scene(scene).ok());
    scene.settings.implicit.linear_iterations = 0;
    CHECK(check_scene(scene).error().message.find("simulation.implicit.linear_iterations") != std::string::npos);
    scene.settings.implicit.linear_iterations = 10;
    scene.settings.implicit.newton_tolerance = 0;
    CHECK(check_scene(scene).error().message.find("simulation.implicit.newton_tolerance") != std::string::npos);
  }
  SUBCASE("save, load and save again give the same bytes; the default writes neither key") {
    test::TempDir dir("implicit-test");
    Result<Scene> first = parse_scene(
        chain_file(
            R"(, "integrator": "implicit_euler", "implicit": {"newton_iterations": 7, "newton_tolerance": 3e-9})"),
        dir.path / "a.json");
    REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().message));
    REQUIRE(save_scene(*first, dir.path / "b.json").ok());
    Result<Scene> second = load_scene(dir.path / "b.json");
    REQUIRE_MESSAGE(second.ok(), (second.ok() ? "" : second.error().message));
    CHECK(second->settings.integrator == Integrator::ImplicitEuler);
    CHECK(second->settings.implicit == first->settings.implicit);
    REQUIRE(save_scene(*second, dir.path / "c.json").ok());
    const std::string b = read_text(dir.path / "b.json");
    CHECK(b == read_text(dir.path / "c.json"));
    CHECK(b.find("\"integrator\": \"implicit_euler\"") != std::string::npos);

    Result<Scene> plain = parse_scene(chain_file(""), dir.path / "d.json");
    REQUIRE(plain.ok());
    REQUIRE(save_scene(*plain, dir.path / "d.json").ok());
    const std::string d = read_text(dir.path / "d.json");
    CHECK(d.find("integrator") == std::string::npos);
    CHECK(d.find("implicit") == std::string::npos);
  }
}

TEST_CASE("implicit scene file: a scene with rigid bodies is refused, not stepped half implicitly") {
  Result<Scene> slide = load_scene(test::source_dir() / "scenes" / "slide.json");
  REQUIRE(slide.ok());
  REQUIRE(slide->body_count() == 1);
  Scene implicit = *slide;
  implicit.settings.integrator = Integrator::ImplicitEuler;
  const Status checked = check_scene(implicit);
  REQUIRE_FALSE(checked.ok());
  CHECK(checked.error().message.find("simulation.integrator: found implicit_euler in a scene with 1 rigid body; "
                                     "expected semi_implicit_euler") != std::string::npos);
}
