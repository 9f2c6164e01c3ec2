#include "view/time_strip.h"

#include <algorithm>
#include <cmath>

namespace nudge::view {

int column_first_step(int column, int columns, int steps) {
  return static_cast<int>((static_cast<long long>(column) * steps) / columns);
}

HeatStrip control_gradient_strip(const Parameter& controls, int columns) {
  return step_strip(controls.grad, controls.rows, controls.cols, columns);
}

HeatStrip step_strip(const std::vector<double>& values, int steps, int channels, int columns) {
  HeatStrip strip;
  if (steps <= 0 || channels <= 0 || columns <= 0 || values.size() != size_t(steps) * size_t(channels)) return strip;
  columns = std::min(columns, steps);  // never more columns than steps
  strip.rows = channels;
  strip.columns = columns;
  strip.cells.assign(size_t(channels) * size_t(columns), 0.0f);
  for (double g : values) strip.scale = std::max(strip.scale, std::fabs(g));
  if (strip.scale == 0) return strip;
  for (int c = 0; c < columns; ++c) {
    const int first = column_first_step(c, columns, steps), last = column_first_step(c + 1, columns, steps);
    for (int ch = 0; ch < channels; ++ch) {
      double strongest = 0;
      for (int t = first; t < last; ++t) {
        const double g = values[size_t(t) * size_t(channels) + size_t(ch)];
        if (std::fabs(g) > std::fabs(strongest)) strongest = g;
      }
      strip.cells[size_t(ch) * size_t(columns) + size_t(c)] = static_cast<float>(strongest / strip.scale);
    }
  }
  return strip;
}

}  // namespace nudge::view
