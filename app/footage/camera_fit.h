// Fitting the pinhole camera that filmed a shot to a few points whose place in the world
// is known (ground corners, the ends of a measured rod) and where the user clicked them
// in the image. The principal point is the image's centre; the focal length is fitted
// unless it is known; the pose always is.
#pragma once

#include <optional>
#include <vector>

#include "nudge/footage.h"
#include "nudge/result.h"

namespace nudge::footage {

struct CameraFit {
  PinholeCamera camera;
  double rms_error = 0.0;      // px, over the correspondences
  double max_error = 0.0;      // px
  std::vector<double> errors;  // px, one per correspondence, in their order
};

// At least 4 correspondences, not all on one line, all in front of the fitted camera.
// `focal` fixes the focal length (px) when it is known.
Result<CameraFit> fit_camera(const std::vector<CameraCorrespondence>& points, int width, int height,
                             std::optional<double> focal = std::nullopt);

}  // namespace nudge::footage
