// Per-step values drawn along the timeline, one row per channel: the control gradients
// dL/du_t as a heat strip (red where raising the control at that step raises the loss,
// blue where it lowers it), and curves of per-step magnitudes such as |dL/dx_t|. Window-
// free: the timeline panel draws what these compute.
#pragma once

#include <vector>

#include "nudge/parameters.h"

namespace nudge::view {

// A steps x channels array resampled to `columns` columns of time for drawing: each cell
// holds the value of largest magnitude among the steps that fall into its column (so a
// spike is never averaged away), scaled by 1 / scale into [-1, 1].
struct HeatStrip {
  int rows = 0, columns = 0;
  std::vector<float> cells;  // rows x columns, row-major, each in [-1, 1]
  double scale = 0;          // max |value| over every step and channel; 0: all zero
  float at(int row, int column) const { return cells[size_t(row) * size_t(columns) + size_t(column)]; }
};

// From per-step values (steps x rows, row-major by step). Empty (rows 0) when the sizes
// do not match or there is nothing to draw.
HeatStrip step_strip(const std::vector<double>& values, int steps, int rows, int columns);

// From the control gradients (param.grad, steps x channels as in the parameter controls).
// Empty (rows 0) when the parameter has no entries or no gradient.
HeatStrip control_gradient_strip(const Parameter& controls, int columns);

// The step a column of `columns` over `steps` steps begins at: column c covers steps
// [column_first_step(c), column_first_step(c + 1)).
int column_first_step(int column, int columns, int steps);

}  // namespace nudge::view
