#include "footage/camera_fit.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "nudge/quat.h"

namespace nudge::footage {

namespace {

// A pose found by OpenCV for one focal length: world to camera in its axes (x right,
// y down, z forward).
struct Pose {
  cv::Mat rvec, tvec;
  double rms = INFINITY;
};

cv::Mat intrinsics(double focal, double cx, double cy) {
  return (cv::Mat_<double>(3, 3) << focal, 0, cx, 0, focal, cy, 0, 0, 1);
}

Pose pose_for_focal(const std::vector<cv::Point3d>& world, const std::vector<cv::Point2d>& image, double focal,
                    double cx, double cy) {
  Pose pose;
  const cv::Mat k = intrinsics(focal, cx, cy);
  try {
    // SQPnP finds the global pose for any number of points from 3 on, planar or not;
    // Levenberg-Marquardt then polishes it.
    if (!cv::solvePnP(world, image, k, cv::noArray(), pose.rvec, pose.tvec, false, cv::SOLVEPNP_SQPNP)) return pose;
    cv::solvePnPRefineLM(world, image, k, cv::noArray(), pose.rvec, pose.tvec);
    std::vector<cv::Point2d> projected;
    cv::projectPoints(world, pose.rvec, pose.tvec, k, cv::noArray(), projected);
    double sum = 0;
    for (size_t i = 0; i < image.size(); ++i) sum += std::pow(cv::norm(projected[i] - image[i]), 2);
    pose.rms = std::sqrt(sum / double(image.size()));
  } catch (const cv::Exception&) {
    pose.rms = INFINITY;
  }
  return pose;
}

// Our camera from OpenCV's pose: c_cv = R x + t, and our camera axes are OpenCV's with y
// and z flipped, so our camera-to-world rotation is R^T diag(1, -1, -1).
PinholeCamera camera_of(const Pose& pose, double focal, int width, int height) {
  cv::Mat r;
  cv::Rodrigues(pose.rvec, r);
  const cv::Mat centre = -r.t() * pose.tvec;
  PinholeCamera camera;
  camera.width = width, camera.height = height;
  camera.focal = focal;
  camera.principal[0] = 0.5 * (width - 1), camera.principal[1] = 0.5 * (height - 1);
  for (int k = 0; k < 3; ++k) camera.position[k] = centre.at<double>(k);
  Mat33<double> m;
  const double flip[3] = {1, -1, -1};
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) m(row, col) = r.at<double>(col, row) * flip[col];
  const Quat<double> q = quat_from_matrix(m);
  camera.orientation[0] = q.x, camera.orientation[1] = q.y, camera.orientation[2] = q.z, camera.orientation[3] = q.w;
  return camera;
}

}  // namespace

Result<CameraFit> fit_camera(const std::vector<CameraCorrespondence>& points, int width, int height,
                             std::optional<double> focal) {
  if (width < 1 || height < 1)
    return Error{"fit camera: found a " + std::to_string(width) + " x " + std::to_string(height) +
                 " image; expected a width and height of at least 1 px"};
  if (points.size() < 4)
    return Error{
        "fit camera: found " + std::to_string(points.size()) +
        " correspondences; expected at least 4 points whose place in the world and in the image are both known"};
  if (focal && !(*focal > 0 && std::isfinite(*focal)))
    return Error{"fit camera: found a focal length of " + std::to_string(*focal) + " px; expected a number > 0"};
  std::vector<cv::Point3d> world;
  std::vector<cv::Point2d> image;
  for (size_t i = 0; i < points.size(); ++i) {
    const CameraCorrespondence& p = points[i];
    for (double x : {p.world[0], p.world[1], p.world[2], p.image[0], p.image[1]})
      if (!std::isfinite(x))
        return Error{"fit camera: correspondence " + std::to_string(i) + " has a value that is not finite"};
    world.emplace_back(p.world[0], p.world[1], p.world[2]);
    image.emplace_back(p.image[0], p.image[1]);
  }
  // Not all on one line: the world points must span at least a plane.
  cv::Mat centred(int(world.size()), 3, CV_64F);
  const cv::Point3d mean = [&] {
    cv::Point3d m(0, 0, 0);
    for (const cv::Point3d& w : world) m += w;
    return m * (1.0 / double(world.size()));
  }();
  for (int i = 0; i < centred.rows; ++i) {
    const cv::Point3d d = world[size_t(i)] - mean;
    centred.at<double>(i, 0) = d.x, centred.at<double>(i, 1) = d.y, centred.at<double>(i, 2) = d.z;
  }
  cv::Mat singular;
  cv::SVD::compute(centred, singular, cv::SVD::NO_UV);
  if (!(singular.at<double>(1) > 1e-6 * singular.at<double>(0)))
    return Error{
        "fit camera: the correspondences' world points lie on one line; expected points spanning a plane or "
        "more (ground corners, not only the ends of one rod)"};

  const double cx = 0.5 * (width - 1), cy = 0.5 * (height - 1);
  double best_focal = focal.value_or(0);
  Pose best;
  if (focal) {
    best = pose_for_focal(world, image, *focal, cx, cy);
  } else {
    // The reprojection error over log(focal): a coarse scan from a fisheye's to a long
    // lens's, then golden-section search around the best sample.
    const double size = std::max(width, height);
    const double lo = std::log(0.1 * size), hi = std::log(30.0 * size);
    constexpr int kSamples = 80;
    const auto rms_at = [&](double log_focal) { return pose_for_focal(world, image, std::exp(log_focal), cx, cy).rms; };
    int best_sample = 0;
    double best_rms = INFINITY;
    for (int i = 0; i <= kSamples; ++i) {
      const double rms = rms_at(lo + (hi - lo) * i / kSamples);
      if (rms < best_rms) best_rms = rms, best_sample = i;
    }
    double a = lo + (hi - lo) * std::max(best_sample - 1, 0) / kSamples;
    double b = lo + (hi - lo) * std::min(best_sample + 1, kSamples) / kSamples;
    const double golden = 0.5 * (std::sqrt(5.0) - 1);
    double c = b - golden * (b - a), d = a + golden * (b - a);
    double fc = rms_at(c), fd = rms_at(d);
    for (int i = 0; i < 80 && b - a > 1e-10; ++i) {
      if (fc < fd)
        b = d, d = c, fd = fc, c = b - golden * (b - a), fc = rms_at(c);
      else
        a = c, c = d, fc = fd, d = a + golden * (b - a), fd = rms_at(d);
    }
    best_focal = std::exp(0.5 * (a + b));
    best = pose_for_focal(world, image, best_focal, cx, cy);
  }
  if (!std::isfinite(best.rms))
    return Error{
        "fit camera: no camera pose fits these correspondences; check that each world point is paired with "
        "where it shows in the image"};

  CameraFit fit;
  fit.camera = camera_of(best, best_focal, width, height);
  double sum = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    double uv[2];
    if (project_point(fit.camera, points[i].world, uv) < kMinProjectionDepth)
      return Error{"fit camera: correspondence " + std::to_string(i) +
                   " lies behind the best-fitting camera; check the pairs of world and image points"};
    const double e = std::hypot(uv[0] - points[i].image[0], uv[1] - points[i].image[1]);
    fit.errors.push_back(e);
    sum += e * e;
    fit.max_error = std::max(fit.max_error, e);
  }
  fit.rms_error = std::sqrt(sum / double(points.size()));
  return fit;
}

}  // namespace nudge::footage
