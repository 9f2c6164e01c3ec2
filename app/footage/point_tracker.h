// Following one feature through the frames of a shot: pyramidal Lucas-Kanade from frame
// to frame (OpenCV), refined against the patch the user clicked so that small errors do
// not pile up, with a confidence from how well the patch still matches. Where the
// feature is hidden the tracker leaves the frame out, and finds it again afterwards by
// searching for the patch around where it was heading.
#pragma once

#include <functional>
#include <vector>

#include "footage/image.h"
#include "nudge/result.h"

namespace nudge::footage {

struct TrackPoint {
  int frame = 0;
  double u = 0, v = 0;      // px, pixel centres at integer coordinates
  double confidence = 1.0;  // in [0, 1]
  bool key = false;         // placed by the user
};

struct TrackerSettings {
  int window = 21;              // Lucas-Kanade window, px (odd)
  int pyramid_levels = 3;       // image pyramid levels above the full-size image
  int template_radius = 10;     // half-size of the patch that is matched, px
  double min_confidence = 0.6;  // below it the feature counts as lost on that frame
  int search_radius = 40;       // px around the prediction searched after a loss
};

// Frames come from a callback, so the tracker works on a VideoReader or images in memory.
using FrameSource = std::function<Result<Image>(int frame)>;

// Tracks from the key points (at least one, distinct frames) over frames [first, last]:
// forward from each key to the next key (or to `last`), and backward from the first key
// to `first`. Keys are returned as given (confidence 1); frames where the feature is
// lost get no point. Points come in frame order.
Result<std::vector<TrackPoint>> track_point(const FrameSource& frames, std::vector<TrackPoint> keys, int first,
                                            int last, const TrackerSettings& settings = {});

}  // namespace nudge::footage
