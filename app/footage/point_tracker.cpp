#include "footage/point_tracker.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <optional>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

namespace nudge::footage {

namespace {

// Grey frames, decoded once each.
class GrayFrames {
public:
  explicit GrayFrames(const FrameSource& source) : source_(source) {}

  Result<const cv::Mat*> at(int frame) {
    auto it = frames_.find(frame);
    if (it == frames_.end()) {
      Result<Image> image = source_(frame);
      if (!image) return image.error();
      // A malformed image would be read past its end; frames of two sizes cannot be compared.
      const std::string size = std::to_string(image->width) + " x " + std::to_string(image->height);
      if (image->width <= 0 || image->height <= 0 ||
          image->rgb.size() != size_t(image->width) * size_t(image->height) * 3)
        return Error{"frame " + std::to_string(frame) + ": the image is " + size + " with " +
                     std::to_string(image->rgb.size()) + " bytes; expected 3 bytes per pixel"};
      if (!frames_.empty() &&
          (frames_.begin()->second.cols != image->width || frames_.begin()->second.rows != image->height))
        return Error{"frame " + std::to_string(frame) + ": the image is " + size + ", frame " +
                     std::to_string(frames_.begin()->first) + " " + std::to_string(frames_.begin()->second.cols) +
                     " x " + std::to_string(frames_.begin()->second.rows) +
                     "; the frames of a shot must all be the same size"};
      std::vector<unsigned char> gray = to_gray(*image);
      it = frames_.emplace(frame, cv::Mat(image->height, image->width, CV_8U, gray.data()).clone()).first;
    }
    return &it->second;
  }

private:
  const FrameSource& source_;
  std::map<int, cv::Mat> frames_;
};

struct Tracker {
  GrayFrames& gray;
  const TrackerSettings& settings;
  cv::Mat key_image;  // the key's frame, for refining against the clicked patch
  cv::Point2f key_point;
  cv::Mat reference;  // the clicked patch, float

  cv::Size patch_size() const { return {2 * settings.template_radius + 1, 2 * settings.template_radius + 1}; }

  bool inside(const cv::Mat& image, cv::Point2f p) const {
    const float margin = float(settings.template_radius);
    return p.x >= margin && p.y >= margin && p.x <= float(image.cols - 1) - margin &&
           p.y <= float(image.rows - 1) - margin;
  }

  // How well the patch at p matches the clicked one: normalised cross-correlation.
  double match(const cv::Mat& image, cv::Point2f p) const {
    cv::Mat patch, score;
    cv::getRectSubPix(image, patch_size(), p, patch, CV_32F);
    cv::matchTemplate(patch, reference, score, cv::TM_CCOEFF_NORMED);
    const double ncc = score.at<float>(0, 0);
    return std::isfinite(ncc) ? std::clamp(ncc, 0.0, 1.0) : 0.0;
  }

  // Lucas-Kanade from `from` at p to `to`, starting at `guess`; nothing when it fails.
  std::optional<cv::Point2f> flow(const cv::Mat& from, cv::Point2f p, const cv::Mat& to, cv::Point2f guess) const {
    std::vector<cv::Point2f> start{p}, end{guess};
    std::vector<unsigned char> status;
    std::vector<float> error;
    const cv::TermCriteria stop(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 40, 0.003);
    cv::calcOpticalFlowPyrLK(from, to, start, end, status, error, {settings.window, settings.window},
                             settings.pyramid_levels, stop, cv::OPTFLOW_USE_INITIAL_FLOW);
    if (status.empty() || !status[0] || !inside(to, end[0])) return std::nullopt;
    return end[0];
  }

  // The patch searched for by template matching around `centre`: the best peak, refined
  // to a fraction of a pixel by a parabola through its neighbours.
  std::optional<cv::Point2f> search(const cv::Mat& image, cv::Point2f centre) const {
    const int r = settings.template_radius, reach = settings.search_radius + r;
    const cv::Rect area =
        cv::Rect(int(std::lround(centre.x)) - reach, int(std::lround(centre.y)) - reach, 2 * reach + 1, 2 * reach + 1) &
        cv::Rect(0, 0, image.cols, image.rows);
    if (area.width <= 2 * r + 2 || area.height <= 2 * r + 2) return std::nullopt;
    cv::Mat region, score;
    image(area).convertTo(region, CV_32F);
    cv::matchTemplate(region, reference, score, cv::TM_CCOEFF_NORMED);
    double best = 0;
    cv::Point peak;
    cv::minMaxLoc(score, nullptr, &best, nullptr, &peak);
    if (best < std::max(settings.min_confidence, 0.7)) return std::nullopt;
    const auto offset = [&](float before, float at, float after) {
      const float curvature = before - 2 * at + after;
      return curvature < 0 ? 0.5f * (before - after) / curvature : 0.0f;
    };
    float dx = 0, dy = 0;
    if (peak.x > 0 && peak.x < score.cols - 1)
      dx = offset(score.at<float>(peak.y, peak.x - 1), score.at<float>(peak.y, peak.x),
                  score.at<float>(peak.y, peak.x + 1));
    if (peak.y > 0 && peak.y < score.rows - 1)
      dy = offset(score.at<float>(peak.y - 1, peak.x), score.at<float>(peak.y, peak.x),
                  score.at<float>(peak.y + 1, peak.x));
    return cv::Point2f(float(area.x + peak.x + r) + dx, float(area.y + peak.y + r) + dy);
  }

  // From the key at frame `key` towards `end` (one past the last frame visited) by `step`
  // (+1 or -1), appending the frames where the feature is found.
  Status run(const TrackPoint& key, int end, int step, std::vector<TrackPoint>& out) {
    Result<const cv::Mat*> first = gray.at(key.frame);
    if (!first) return first.error();
    key_image = **first;
    key_point = cv::Point2f(float(key.u), float(key.v));
    cv::getRectSubPix(key_image, patch_size(), key_point, reference, CV_32F);
    cv::Point2f last = key_point, velocity(0, 0);
    int last_frame = key.frame;
    bool lost = false;
    for (int frame = key.frame + step; frame != end; frame += step) {
      Result<const cv::Mat*> image = gray.at(frame);
      if (!image) return image.error();
      const cv::Mat& to = **image;
      const cv::Point2f predicted = last + velocity * float(std::abs(frame - last_frame));
      std::optional<cv::Point2f> found;
      if (!lost) {
        Result<const cv::Mat*> previous = gray.at(last_frame);
        if (!previous) return previous.error();
        found = flow(**previous, last, to, predicted);
        // The way back must return to where it started, or the flow slid off.
        if (found) {
          const std::optional<cv::Point2f> back = flow(to, *found, **previous, last);
          if (!back || cv::norm(*back - last) > 0.5) found.reset();
        }
      } else {
        found = search(to, predicted);
      }
      // Refined against the clicked patch itself, so frame-to-frame errors do not add up.
      if (found)
        if (std::optional<cv::Point2f> anchored = flow(key_image, key_point, to, *found);
            anchored && cv::norm(*anchored - *found) < 2.0)
          found = anchored;
      const double confidence = found && inside(to, *found) ? match(to, *found) : 0.0;
      if (!found || confidence < settings.min_confidence) {
        lost = true;
        continue;
      }
      out.push_back({frame, found->x, found->y, confidence, false});
      velocity = (*found - last) * (1.0f / float(std::abs(frame - last_frame)));
      last = *found;
      last_frame = frame;
      lost = false;
    }
    return Ok{};
  }
};

}  // namespace

Result<std::vector<TrackPoint>> track_point(const FrameSource& frames, std::vector<TrackPoint> keys, int first,
                                            int last, const TrackerSettings& settings) {
  if (keys.empty()) return Error{"tracking needs at least one key point"};
  std::sort(keys.begin(), keys.end(), [](const TrackPoint& a, const TrackPoint& b) { return a.frame < b.frame; });
  for (size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].frame < first || keys[k].frame > last)
      return Error{"the key point on frame " + std::to_string(keys[k].frame) + " lies outside the frames tracked (" +
                   std::to_string(first) + " to " + std::to_string(last) + ")"};
    if (k > 0 && keys[k].frame == keys[k - 1].frame)
      return Error{"two key points on frame " + std::to_string(keys[k].frame) + "; expected one per frame"};
  }
  if (settings.window < 3 || settings.template_radius < 2 || settings.pyramid_levels < 0 || settings.search_radius < 1)
    return Error{"tracker settings out of range: the window must be >= 3 px, the patch radius >= 2 px"};

  GrayFrames gray(frames);
  std::vector<TrackPoint> out;
  try {
    for (size_t k = 0; k < keys.size(); ++k) {
      TrackPoint key = keys[k];
      key.confidence = 1.0, key.key = true;
      Result<const cv::Mat*> image = gray.at(key.frame);
      if (!image) return image.error();
      const cv::Mat& m = **image;
      if (key.u < 0 || key.v < 0 || key.u > m.cols - 1 || key.v > m.rows - 1)
        return Error{"the key point on frame " + std::to_string(key.frame) + " at (" + std::to_string(key.u) + ", " +
                     std::to_string(key.v) + ") lies outside the " + std::to_string(m.cols) + " x " +
                     std::to_string(m.rows) + " image"};
      out.push_back(key);
      Tracker tracker{gray, settings, {}, {}, {}};
      if (k == 0)
        if (Status s = tracker.run(key, first - 1, -1, out); !s) return s.error();
      const int end = k + 1 < keys.size() ? keys[k + 1].frame : last + 1;
      if (Status s = tracker.run(key, end, +1, out); !s) return s.error();
    }
  } catch (const cv::Exception& e) {
    return Error{std::string("tracking failed in OpenCV: ") + e.what()};
  } catch (const std::exception& e) {  // out of memory, mostly
    return Error{std::string("tracking failed: ") + e.what()};
  }
  std::sort(out.begin(), out.end(), [](const TrackPoint& a, const TrackPoint& b) { return a.frame < b.frame; });
  return out;
}

}  // namespace nudge::footage
