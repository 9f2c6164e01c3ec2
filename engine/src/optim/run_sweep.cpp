// A sweep on local threads: each thread owns a simulator (one thread each) and claims the
// next pending point; finished rows are appended to the table one at a time. A point's
// result does not depend on which thread ran it, so the table equals a serial run's up to
// the order of its rows.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "nudge/sweep.h"

namespace nudge {

Result<int> run_sweep(const Scene& scene, const SweepPlan& plan, SweepTable& table, const SweepRunOptions& options,
                      const std::function<bool(const SweepRow&)>& on_row) {
  const std::vector<int> pending = table.pending();
  if (pending.empty()) return 0;
  int threads = options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min<int>(threads, int(pending.size()));
  SimulatorOptions simulator = options.simulator;
  simulator.threads = 1;

  // Every simulator is made before any point runs, so a scene the engine refuses is one error.
  std::vector<std::unique_ptr<SweepEvaluator>> evaluators;
  for (int t = 0; t < threads; ++t) {
    Result<std::unique_ptr<SweepEvaluator>> e = SweepEvaluator::create(scene, plan, simulator);
    if (!e) return e.error();
    evaluators.push_back(std::move(*e));
  }

  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex writing;
  std::optional<Error> failure;
  int added = 0;
  const auto work = [&](SweepEvaluator& evaluator) {
    while (!stop.load()) {
      const std::size_t k = next.fetch_add(1);
      if (k >= pending.size()) return;
      const SweepRow row = evaluator.evaluate(pending[k]);
      const std::lock_guard<std::mutex> lock(writing);
      if (failure) return;  // a stop asked for still keeps the points already run
      if (Status s = table.append(row); !s) {
        failure = s.error();
        stop = true;
        return;
      }
      ++added;
      if (on_row && !on_row(row)) stop = true;
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back(work, std::ref(*evaluators[std::size_t(t)]));
  work(*evaluators[0]);
  for (std::thread& w : workers) w.join();
  if (failure) return *failure;
  return added;
}

}  // namespace nudge
