// B3 `cloth_throw` (bench/cloth_throw_benchmark.h): the scene built in code is
// scenes/cloth_throw.json, the benchmark reports what the plain simulator computes on
// that file, and in float32 it agrees with Warp 1.9.1's example with its bending edges
// (bench/peers/warp_cloth_throw.py) to the spec's 1e-3.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>

#include "../source_dir.h"
#include "cloth_throw_benchmark.h"
#include "nudge/simulator.h"

using namespace nudge;
namespace fs = std::filesystem;

namespace {

using test::source_dir;

Scene load_file_scene() {
  Result<Scene> scene = load_scene(source_dir() / "scenes" / "cloth_throw.json");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? std::string() : scene.error().message));
  return std::move(scene).value();
}

// The scene as save_scene writes it: every field the file format holds.
std::string saved_text(const Scene& scene, const std::string& name) {
  const fs::path path = fs::temp_directory_path() / ("nudge_b3_" + std::to_string(::getpid()) + "_" + name + ".json");
  REQUIRE(save_scene(scene, path).ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(path);
  return text.str();
}

double norm(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return std::sqrt(sum);
}

double relative(double value, double reference) { return std::fabs(value - reference) / std::fabs(reference); }

}  // namespace

TEST_CASE("cloth_throw: the benchmark's scene built in code is scenes/cloth_throw.json") {
  const Scene built = make_cloth_throw_scene();
  const Scene file = load_file_scene();
  CHECK(check_scene(built).ok());
  CHECK(built.particle_count() == 17 * 17);
  CHECK(built.triangle_count() == 512);
  CHECK(built.triangles == file.triangles);
  CHECK(built.params[ParamId::InitialPosition].value == file.params[ParamId::InitialPosition].value);
  CHECK(saved_text(built, "built") == saved_text(file, "file"));
}

TEST_CASE("cloth_throw: the benchmark reports the plain simulator's loss and gradient on the scene file") {
  constexpr int steps = 120;
  for (Precision precision : {Precision::Float32, Precision::Float64}) {
    CAPTURE(precision_name(precision));
    ClothThrowBenchOptions options;
    options.steps = steps;
    options.precision = precision;
    options.device = Device::Cpu;
    options.threads = 1;
    options.runs = 1;
    Result<ClothThrowBenchResult> bench = run_cloth_throw_benchmark(options);
    REQUIRE(bench.ok());
    CHECK(bench->forward_s > 0);
    CHECK(bench->gradient_s > 0);
    CHECK(bench->to_json().find("\"bench\":\"cloth_throw\"") != std::string::npos);

    Scene scene = load_file_scene();
    scene.settings.steps = steps;
    shape_parameters(scene);  // the controls' T x 0
    SimulatorOptions sim_options;
    sim_options.device = Device::Cpu;
    sim_options.precision = precision;
    sim_options.threads = 1;
    sim_options.checkpoint_every = 0;
    Result<std::unique_ptr<Simulator>> sim = Simulator::create(scene, sim_options);
    REQUIRE_MESSAGE(sim.ok(), (sim.ok() ? std::string() : sim.error().message));
    ParameterSet params = scene.params;
    Result<Evaluation> eval = (*sim)->gradient(params);
    REQUIRE(eval.ok());
    CHECK(relative(bench->loss, eval->loss) < 1e-12);
    CHECK(relative(bench->grad_v0_norm, norm(params[ParamId::InitialVelocity].grad)) < 1e-12);
    CHECK(relative(bench->grad_k_norm, norm(params[ParamId::TriangleStiffness].grad)) < 1e-12);
    CHECK(bench->grad_k_norm > 0);
  }
}

TEST_CASE("cloth_throw: float32 over the full 1920 steps agrees with Warp 1.9.1 to the spec's 1e-3") {
  ClothThrowBenchOptions options;
  options.device = Device::Cpu;
  options.runs = 1;
  Result<ClothThrowBenchResult> result = run_cloth_throw_benchmark(options);
  REQUIRE(result.ok());
  // bench/peers/warp_cloth_throw.py --bending on this machine's CPU. The loss to the
  // spec's 1e-3; the gradients to 5 %: Warp's float32 acos bending angle cannot resolve
  // the nearly flat cloth's angles (tests/engine/example_scenes_test.cpp says more).
  CHECK(relative(result->loss, 269.9786071777344) < 1e-3);
  CHECK(relative(result->grad_v0_norm, 11.201340675354004) < 0.05);
  CHECK(relative(result->grad_k_norm, 1.1814356639661128e-06) < 0.05);
}

TEST_CASE("cloth_throw: bad options are errors") {
  using Edit = void (*)(ClothThrowBenchOptions&);
  const Edit edits[] = {[](ClothThrowBenchOptions& o) { o.steps = 0; }, [](ClothThrowBenchOptions& o) { o.runs = 0; },
                        [](ClothThrowBenchOptions& o) { o.threads = -1; },
                        [](ClothThrowBenchOptions& o) { o.checkpoint_every = -2; }};
  for (Edit bad : edits) {
    ClothThrowBenchOptions options;
    options.device = Device::Cpu;
    bad(options);
    CHECK_FALSE(run_cloth_throw_benchmark(options).ok());
  }
}
