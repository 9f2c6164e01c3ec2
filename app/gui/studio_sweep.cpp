// A sweep's table in the studio (nudge/sweep.h): opened from File > Open or by dropping
// it on the window, shown in the Sweep tab and read again as its file grows, so that a
// sweep still running fills the plot in; a point picked there opens as a scene.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "gui/dock_layout.h"
#include "gui/studio.h"

namespace nudge::gui {

namespace fs = std::filesystem;

namespace {

constexpr double kSweepPollSeconds = 0.5;

}  // namespace

void Studio::open_sweep(const fs::path& path) {
  Result<SweepTableContents> table = read_sweep_table(path);
  if (!table) {
    show_error(table.error().message);
    return;
  }
  std::error_code ec;
  SweepView& sweep = state_.sweep;
  const bool same = sweep.path == path;
  sweep.path = path;
  sweep.written = fs::last_write_time(path, ec);
  sweep.checked = std::chrono::steady_clock::now();
  sweep.table = std::make_shared<const SweepTableContents>(std::move(*table));
  if (!same) sweep.selected = -1, sweep.plotted = -1, sweep.across = 0;
  state_.ui.view.sweep = true;
  state_.ui.bring_panel = panel_name::kSweep;
  state_.log.info("opened the sweep table " + path.string() + ": " + std::to_string(sweep.table->rows.size()) +
                  " points, " + std::string(sweep_mode_name(sweep.table->mode)) + " mode");
}

void Studio::update_sweep() {
  SweepView& sweep = state_.sweep;
  const auto now = std::chrono::steady_clock::now();
  if (!sweep.table || std::chrono::duration<double>(now - sweep.checked).count() < kSweepPollSeconds) return;
  sweep.checked = now;
  std::error_code ec;
  const fs::file_time_type written = fs::last_write_time(sweep.path, ec);
  if (ec || written == sweep.written) return;  // a table removed meanwhile stays shown as it was
  sweep.written = written;
  Result<SweepTableContents> table = read_sweep_table(sweep.path);
  if (!table) {
    state_.log.warning("the sweep table changed and cannot be read again (the plot keeps what it had): " +
                       table.error().message);
    return;
  }
  sweep.table = std::make_shared<const SweepTableContents>(std::move(*table));
  if (sweep.selected >= int(sweep.table->rows.size())) sweep.selected = -1;
}

void Studio::open_sweep_point(int point) {
  const SweepView& sweep = state_.sweep;
  if (!sweep.table || point < 0 || point >= int(sweep.table->rows.size())) return;
  const SweepTableContents& table = *sweep.table;
  const SweepRow& row = table.rows[std::size_t(point)];
  if (table.scene.empty()) {
    show_error(sweep.path.string() +
               ": the sweep's scene had no file (it was built in code), so its points cannot "
               "be opened");
    return;
  }
  const fs::path scene_path = (sweep.path.parent_path() / table.scene).lexically_normal();
  Result<Scene> scene = load_scene(scene_path);
  if (!scene) {
    show_error("point " + std::to_string(row.index) + " of " + sweep.path.string() + ": " + scene.error().message);
    return;
  }
  Result<Scene> at = scene_at_sweep_row(*scene, table, row);
  if (!at) {
    show_error(sweep.path.string() + ": " + at.error().message);
    return;
  }
  // An unsaved scene (Save asks where), so that the sweep's own scene file is not
  // overwritten by mistake.
  at->name += " at sweep point " + std::to_string(row.index);
  at->source.clear();
  show_scene(std::move(*at));
  state_.log.info("opened point " + std::to_string(row.index) + " of " + sweep.path.string() + " (" +
                  scene_path.string() + " with the point's values) as an unsaved scene");
}

}  // namespace nudge::gui
