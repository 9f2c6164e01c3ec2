// nudge track SCENE [--add NAME FRAME U V]... [--track ID]... [--first F] [--last F]
// [--out PATH]: follows the scene's 2D tracks through its video from their key points
// (a new track from one click with --add) and saves them with the scene.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "footage/scene_footage.h"

namespace nudge {

namespace {

struct TrackArgs {
  std::string scene, out;
  std::vector<std::string> add;  // NAME FRAME U V, repeated
  std::vector<int> tracks;
  int first = -1, last = -1;  // -1: the video's first and last frames
};

// "48 of 50 frames, mean confidence 0.93, lost on 20-23, 31"
std::string summary(const Track& track, int first, int last) {
  std::string lost;
  int run_start = -1, previous = -2;
  const auto close_run = [&] {
    if (run_start < 0) return;
    lost += (lost.empty() ? "" : ", ") + std::to_string(run_start) +
            (previous > run_start ? "-" + std::to_string(previous) : "");
    run_start = -1;
  };
  size_t next = 0;
  for (int frame = first; frame <= last; ++frame) {
    while (next < track.samples.size() && track.samples[next].frame < frame) ++next;
    const bool seen = next < track.samples.size() && track.samples[next].frame == frame;
    if (!seen && run_start < 0) run_start = frame;
    if (seen) close_run();
    if (!seen) previous = frame;
  }
  close_run();
  return std::to_string(track.samples.size()) + " of " + std::to_string(last - first + 1) +
         " frames, mean confidence " + format_number(track.mean_confidence()) +
         (lost.empty() ? "" : ", lost on " + lost);
}

int run_track(const TrackArgs& args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  Result<footage::VideoReader> video = footage::open_scene_video(*scene);
  if (!video) {
    print_error("track: " + video.error().message);
    return kExitBadInput;
  }
  const int first = args.first < 0 ? 0 : args.first, last = args.last < 0 ? video->frame_count() - 1 : args.last;
  if (first > last || last >= video->frame_count()) {
    print_error("track: frames " + std::to_string(first) + " to " + std::to_string(last) +
                " are not within the video's " + std::to_string(video->frame_count()) + " frames (0 to " +
                std::to_string(video->frame_count() - 1) + ")");
    return kExitBadInput;
  }

  std::vector<int> ids = args.tracks;
  for (size_t k = 0; k + 3 < args.add.size(); k += 4) {
    Track track;
    track.id = scene->footage.next_track_id();
    track.name = args.add[k];
    TrackSample key;
    try {
      key.frame = std::stoi(args.add[k + 1]);
      key.uv[0] = std::stod(args.add[k + 2]);
      key.uv[1] = std::stod(args.add[k + 3]);
    } catch (const std::exception&) {
      print_error("track: --add " + args.add[k] + " " + args.add[k + 1] + " " + args.add[k + 2] + " " +
                  args.add[k + 3] + ": expected NAME FRAME U V with a whole frame number and pixel coordinates");
      return kExitBadInput;
    }
    key.key = true;
    if (key.frame < first || key.frame > last) {
      print_error("track: --add " + track.name + ": frame " + std::to_string(key.frame) +
                  " is not among the frames tracked (" + std::to_string(first) + " to " + std::to_string(last) + ")");
      return kExitBadInput;
    }
    track.samples = {key};
    scene->footage.tracks.push_back(track);
    ids.push_back(track.id);
  }
  if (ids.empty())
    for (const Track& t : scene->footage.tracks) ids.push_back(t.id);
  if (ids.empty()) {
    print_error("track: " + args.scene +
                " has no tracks; add one with --add NAME FRAME U V (a feature's place on a frame)");
    return kExitBadInput;
  }

  Footage tracked = scene->footage;
  for (int id : ids) {
    auto it = std::find_if(tracked.tracks.begin(), tracked.tracks.end(), [&](const Track& t) { return t.id == id; });
    if (it == tracked.tracks.end()) {
      print_error("track: " + args.scene + " has no track " + std::to_string(id));
      return kExitBadInput;
    }
    Result<Track> track = footage::retrack(*video, *it, first, last);
    if (!track) {
      print_error("track: " + track.error().message);
      return kExitFailure;
    }
    *it = std::move(*track);
    std::cout << "track " << id << (it->name.empty() ? "" : " (" + it->name + ")") << ": " << summary(*it, first, last)
              << "\n";
  }
  scene->footage = std::move(tracked);
  const std::string out = args.out.empty() ? args.scene : args.out;
  if (Status saved = save_scene(*scene, out); !saved) {
    print_error("track: " + saved.error().message);
    return kExitFailure;
  }
  std::cout << "wrote " << out << "\n";
  return kExitOk;
}

}  // namespace

void add_track_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<TrackArgs>();
  CLI::App* cmd = app.add_subcommand("track", "Follow the scene's 2D tracks through its footage and save them with it");
  cmd->add_option("scene", args->scene, "Scene file (JSON) with a footage.video")->required();
  cmd->add_option("--add", args->add, "A new track: NAME FRAME U V, a feature's place (px) on one frame; repeatable")
      ->expected(4)
      ->allow_extra_args(false);
  cmd->add_option("--track", args->tracks, "Re-track only this track id; repeatable (default: every track)");
  cmd->add_option("--first", args->first, "First frame tracked (default 0)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--last", args->last, "Last frame tracked (default: the video's last)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--out", args->out, "Write the scene here instead of over SCENE");
  cmd->callback([args, &exit_code] { exit_code = run_track(*args); });
}

}  // namespace nudge
