// B1 of ../shared/bench/SPEC.md in float64 against the spec's reference values.
#include <doctest/doctest.h>

#include <cmath>

#include "cloth_benchmark.h"

using namespace nudge;

TEST_CASE("cloth: B1 float64 at n = 32 matches the spec's reference to 1e-8") {
  ClothBenchOptions options;
  options.n = 32;
  options.steps = 500;
  options.precision = Precision::Float64;
  options.device = Device::Cpu;
  options.runs = 1;
  Result<ClothBenchResult> result = run_cloth_benchmark(options);
  REQUIRE(result.ok());
  const auto relative = [](double value, double reference) {
    return std::fabs(value - reference) / std::fabs(reference);
  };
  CHECK(relative(result->loss, 0.2113456034441) < 1e-8);
  CHECK(relative(result->grad_v0_norm, 0.009792640134616) < 1e-8);
  CHECK(relative(result->grad_k_norm, 7.356807197671e-05) < 1e-8);
}

TEST_CASE("cloth: B1 float32 at n = 32 agrees with the float64 reference to 1e-3") {
  ClothBenchOptions options;
  options.n = 32;
  options.precision = Precision::Float32;
  options.device = Device::Cpu;
  options.runs = 1;
  Result<ClothBenchResult> result = run_cloth_benchmark(options);
  REQUIRE(result.ok());
  CHECK(result->loss == doctest::Approx(0.2113456034441).epsilon(1e-3));
  CHECK(result->grad_v0_norm == doctest::Approx(0.009792640134616).epsilon(1e-3));
  CHECK(result->grad_k_norm == doctest::Approx(7.356807197671e-05).epsilon(1e-3));
}
