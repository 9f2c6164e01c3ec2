// The kernels' float atan2 against std::atan2 in double: every quadrant, the axes,
// signed zeros, tiny and huge arguments.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "nudge/kernel_atan2.h"

using namespace nudge;

TEST_CASE("kernel_atan2: float within a few ulps of the exact angle everywhere") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> exponent(-30.0f, 30.0f);
  double worst_ulps = 0;
  for (int k = 0; k < 2'000'000; ++k) {
    const float y = unit(rng) * std::exp2(exponent(rng)), x = unit(rng) * std::exp2(exponent(rng));
    const double exact = std::atan2(double(y), double(x));
    const float got = kernel_atan2(y, x);
    // In units of the float spacing at the exact angle.
    const double ulp = std::nextafter(float(std::fabs(exact)), INFINITY) - float(std::fabs(exact));
    worst_ulps = std::max(worst_ulps, std::fabs(double(got) - exact) / ulp);
  }
  INFO("worst error " << worst_ulps << " ulps");
  CHECK(worst_ulps < 4.0);
  const double pi = 3.14159265358979323846;
  CHECK(kernel_atan2(0.0f, 0.0f) == 0.0f);
  CHECK(kernel_atan2(0.0f, 1.0f) == 0.0f);
  CHECK(kernel_atan2(0.0f, -1.0f) == doctest::Approx(pi).epsilon(1e-7));
  CHECK(kernel_atan2(-0.0f, -1.0f) == doctest::Approx(-pi).epsilon(1e-7));
  CHECK(kernel_atan2(1.0f, 0.0f) == doctest::Approx(pi / 2).epsilon(1e-7));
  CHECK(kernel_atan2(-1.0f, 0.0f) == doctest::Approx(-pi / 2).epsilon(1e-7));
  CHECK(kernel_atan2(1.0f, 1.0f) == doctest::Approx(pi / 4).epsilon(1e-7));
  CHECK(kernel_atan2(-2.0f, -2.0f) == doctest::Approx(-3 * pi / 4).epsilon(1e-7));
  CHECK(kernel_atan2(1e-30f, 1.0f) == doctest::Approx(1e-30).epsilon(1e-6));
  // double is std::atan2 itself.
  CHECK(kernel_atan2(0.3, -0.7) == std::atan2(0.3, -0.7));
}
