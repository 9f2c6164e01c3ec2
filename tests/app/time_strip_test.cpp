// The timeline's heat strip of control gradients: every step lands in exactly one column,
// a one-step spike survives resampling with its sign, and the scale is the largest |g|.
#include <doctest/doctest.h>

#include <cmath>

#include "view/time_strip.h"

using namespace nudge;
using namespace nudge::view;

namespace {

Parameter controls(int steps, int channels) {
  Parameter p;
  p.id = ParamId::Controls;
  p.rows = steps;
  p.cols = channels;
  p.value.assign(size_t(steps) * size_t(channels), 0.0);
  p.grad.assign(p.value.size(), 0.0);
  return p;
}

}  // namespace

TEST_CASE("time strip: columns cover every step once") {
  for (int steps : {1, 7, 100, 1000, 1001})
    for (int columns : {1, 3, 100, 640}) {
      const int used = std::min(columns, steps);
      CHECK(column_first_step(0, used, steps) == 0);
      CHECK(column_first_step(used, used, steps) == steps);
      for (int c = 0; c < used; ++c) CHECK(column_first_step(c + 1, used, steps) > column_first_step(c, used, steps));
    }
}

TEST_CASE("time strip: a spike keeps its sign and full strength; the scale is max |g|") {
  Parameter p = controls(1000, 3);
  for (size_t i = 0; i < p.grad.size(); ++i) p.grad[i] = 1e-3 * std::sin(double(i));  // small background
  p.grad[size_t(517) * 3 + 1] = -0.25;                                                // one step of channel 1
  p.grad[size_t(20) * 3 + 2] = 0.125;
  const HeatStrip strip = control_gradient_strip(p, 100);
  REQUIRE(strip.rows == 3);
  REQUIRE(strip.columns == 100);
  CHECK(strip.scale == 0.25);
  CHECK(strip.at(1, 51) == -1.0f);  // steps 510..519
  CHECK(strip.at(2, 2) == 0.5f);    // steps 20..29
  for (int c = 0; c < 100; ++c) {
    if (c != 51) CHECK(std::fabs(strip.at(1, c)) <= 1e-3f / 0.25f + 1e-7f);
    for (int row = 0; row < 3; ++row) CHECK(std::fabs(strip.at(row, c)) <= 1.0f);
  }
}

TEST_CASE("time strip: more columns than steps, zero gradients, no controls") {
  Parameter p = controls(10, 2);
  p.grad[3] = 2.0;  // step 1, channel 1
  const HeatStrip strip = control_gradient_strip(p, 400);
  CHECK(strip.columns == 10);
  CHECK(strip.at(1, 1) == 1.0f);
  CHECK(strip.at(0, 1) == 0.0f);

  const HeatStrip zero = control_gradient_strip(controls(10, 2), 5);
  CHECK(zero.rows == 2);
  CHECK(zero.scale == 0);
  for (float v : zero.cells) CHECK(v == 0.0f);

  CHECK(control_gradient_strip(controls(0, 0), 5).rows == 0);
  Parameter no_grad = controls(10, 2);
  no_grad.grad.clear();
  CHECK(control_gradient_strip(no_grad, 5).rows == 0);
}
