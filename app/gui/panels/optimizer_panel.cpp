// The Optimise tab: the method and its settings, start / pause / step / reset, the loss
// and gradient-norm curves, the objective's terms and the optimised parameters.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "gui/panels/panels.h"
#include "gui/plots.h"
#include "gui/theme.h"

namespace nudge::gui {

namespace {

using studio::RunState;

// The methods' names in OptimizerMethod's order.
constexpr const char* kMethodLabels[] = {"Gradient descent", "Adam", "L-BFGS", "CMA-ES (gradient-free)"};
const char* method_label(OptimizerMethod m) { return kMethodLabels[static_cast<int>(m)]; }

// Settings the next run uses; returns whether the user changed one.
bool settings_editor(OptimizerSettings& s, bool running) {
  bool changed = false;
  ImGui::BeginDisabled(running);
  int method = static_cast<int>(s.method);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
  if (ImGui::Combo("method", &method, kMethodLabels, IM_ARRAYSIZE(kMethodLabels))) {
    s.method = static_cast<OptimizerMethod>(method);
    changed = true;
  }
  ImGui::SetItemTooltip(
      "How the next run moves the optimised parameters: gradient descent with momentum, Adam, L-BFGS (quasi-Newton, "
      "with a line search), or CMA-ES (samples the loss alone, no gradient)");
  float rate = static_cast<float>(s.learning_rate);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
  const bool gradient_based = uses_gradient(s.method);
  if (s.method != OptimizerMethod::LBFGS && gradient_based &&
      ImGui::DragFloat("learning rate", &rate, 0.01f * rate, 1e-6f, 10.0f, "%.2e", ImGuiSliderFlags_Logarithmic)) {
    s.learning_rate = std::clamp(double(rate), 1e-9, 1e3);
    changed = true;
  }
  ImGui::SetItemTooltip(
      "The step size of gradient descent and Adam (drag, or Ctrl+click to type); L-BFGS finds its own");
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
  if (ImGui::InputInt("iterations", &s.iterations, 10, 100)) {
    s.iterations = std::clamp(s.iterations, 1, 1'000'000);
    changed = true;
  }
  ImGui::SetItemTooltip("How many iterations the next run makes at most");
  if (s.method == OptimizerMethod::GradientDescent) {
    float momentum = static_cast<float>(s.momentum);
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
    if (ImGui::SliderFloat("momentum", &momentum, 0.0f, 0.99f, "%.2f")) {
      s.momentum = momentum;
      changed = true;
    }
    ImGui::SetItemTooltip("Gradient descent's momentum: how much of the last step each step keeps (0: none)");
  }
  if (s.method == OptimizerMethod::CMAES) {
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
    if (ImGui::InputInt("population", &s.population, 1, 10)) {  // 0: the default 4 + 3 ln n
      s.population = s.population == 1 ? 2 : std::clamp(s.population, 0, 100000);
      changed = true;
    }
    ImGui::SetItemTooltip("CMA-ES: samples per generation (0: the default, 4 + 3 ln n for n parameters)");
    float sigma = static_cast<float>(s.sigma);
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
    if (ImGui::DragFloat("sigma", &sigma, 0.01f * sigma, 1e-6f, 10.0f, "%.3g", ImGuiSliderFlags_Logarithmic)) {
      s.sigma = std::clamp(double(sigma), 1e-9, 1e3);
      changed = true;
    }
    ImGui::SetItemTooltip("CMA-ES: the first spread of its samples, in the parameters' own units");
  }
  float clip = static_cast<float>(s.clip);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
  if (gradient_based && ImGui::DragFloat("clip |g|", &clip, 0.1f, 0.0f, 1e6f, clip > 0 ? "%.3g" : "off")) {
    s.clip = std::max(0.0f, clip);
    changed = true;
  }
  ImGui::SetItemTooltip(
      "Scale the gradient down to this norm when it is larger (0: off): keeps a blown-up gradient from throwing the "
      "parameters far");
  ImGui::EndDisabled();
  return changed;
}

// One history against the iteration, its newest value in the legend.
void curve(const char* id, const char* label, const std::vector<double>& history, bool log_scale,
           const ImVec4& colour) {
  if (history.empty()) return;
  if (!plot::begin(id, 9, "iteration", label, log_scale)) return;
  char legend[96];
  std::snprintf(legend, sizeof legend, "%s %.4g", label, history.back());
  ImPlot::PlotLine(legend, history.data(), int(history.size()), 1.0, 0.0, plot::line(colour));
  ImPlot::EndPlot();
}

double norm_of_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum);
}

double norm(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return std::sqrt(sum);
}

// One row per layer of the controller under its weights' row: how large each layer's
// weights, gradient and change are (a vanishing or exploding layer shows here).
void controller_layer_rows(const Scene& start, const Scene& now) {
  const Controller& c = now.controller;
  const ControllerReads n = controller_reads(now);
  const Parameter& w = now.params[ParamId::ControllerWeights];
  const std::vector<double> values = controller_layer_norms(c, n, w.value),
                            grads = controller_layer_norms(c, n, w.grad);
  std::vector<double> change(w.value.size());
  const std::vector<double>& w0 = start.params[ParamId::ControllerWeights].value;
  for (size_t k = 0; k < change.size() && k < w0.size(); ++k) change[k] = w.value[k] - w0[k];
  const std::vector<double> changes = controller_layer_norms(c, n, change);
  for (size_t l = 0; l < values.size() && l < grads.size() && l < changes.size(); ++l) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("  layer %zu: %d -> %d %s", l + 1, c.layer_inputs(int(l), n), c.layers[l].size,
                std::string(activation_name(c.layers[l].activation)).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", values[l]);
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", grads[l]);
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", changes[l]);
  }
}

void parameter_table(const Scene& start, const Scene& now) {
  if (!ImGui::BeginTable("optimised parameters", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("parameter");
  ImGui::TableSetupColumn("|value|");
  ImGui::TableSetupColumn("|gradient|");
  ImGui::TableSetupColumn("|change|");
  ImGui::TableHeadersRow();
  for (int p = 0; p < kParamCount; ++p) {
    const Parameter& param = now.params.items[size_t(p)];
    if (!param.optimize || param.size() == 0) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s", std::string(param_name(param.id)).c_str());
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::Text("%d x %d values", param.rows, param.cols);
      if (std::isfinite(param.lower) || std::isfinite(param.upper))
        ImGui::Text("bounds [%.4g, %.4g]", param.lower, param.upper);
      if (param.size() <= 6)
        for (int i = 0; i < param.size(); ++i)
          ImGui::Text("%d: %.6g  (dL/dp %.4g)", i, param.value[size_t(i)],
                      param.grad.empty() ? 0.0 : param.grad[size_t(i)]);
      ImGui::EndTooltip();
    }
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", norm(param.value));
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", norm(param.grad));
    ImGui::TableNextColumn();
    ImGui::Text("%.4g", norm_of_difference(param.value, start.params.items[size_t(p)].value));
    if (param.id == ParamId::ControllerWeights) controller_layer_rows(start, now);
  }
  ImGui::EndTable();
}

// The gradient grows exponentially with the horizon (nudge/gradient_growth.h): where it
// starts, how fast, and the truncated horizon that stays clear of it.
void growth_warning(const GradientGrowth& growth, int steps) {
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kWarningText);
  ImGui::TextWrapped(
      "The gradient grows exponentially with the horizon: going back from step %d, |dL/dstate| grows "
      "%.3gx per 100 steps, %.3gx by step 0. The first steps dominate it; a horizon of %d steps or "
      "fewer (Settings) backpropagates only where it has not grown.",
      growth.onset, std::pow(growth.per_step, 100.0), growth.factor, steps - growth.onset);
  ImGui::PopStyleColor();
}

// Model predictive control of the document's scene (nudge/mpc.h): re-plans the next
// steps' controls every few steps; the newest plan's window is drawn as a ghost, and the
// executed controls can be taken into the scene when it has finished.
void mpc_section(OptimiseState& optimise, CommandQueue& commands) {
  MpcSettings& settings = optimise.mpc_settings;
  ImGui::TextWrapped(
      "Re-plans the next horizon's controls every few steps from where the motion has got to, "
      "with the optimiser's settings for a few iterations, and executes the first steps of each plan. "
      "The newest plan's window is drawn in orange.");
  const float width = -ImGui::GetFontSize() * 9;
  ImGui::SetNextItemWidth(width);
  ImGui::InputInt("horizon (steps)", &settings.horizon, 10, 100);
  ImGui::SetItemTooltip("Model predictive control: how many steps ahead each plan looks");
  ImGui::SetNextItemWidth(width);
  ImGui::InputInt("re-plan every", &settings.replan_every, 1, 10);
  ImGui::SetItemTooltip("Model predictive control: how many of each plan's steps are executed before planning again");
  ImGui::SetNextItemWidth(width);
  ImGui::InputInt("iterations per plan", &settings.iterations, 1, 10);
  ImGui::SetItemTooltip("Model predictive control: the optimiser's iterations for each plan");
  settings.horizon = std::clamp(settings.horizon, 1, 1000000);
  settings.replan_every = std::clamp(settings.replan_every, 1, settings.horizon);
  settings.iterations = std::clamp(settings.iterations, 1, 100000);
  const bool busy = optimise.mpc && !optimise.mpc->job().finished();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button("Run MPC")) commands.push(command::RunMpc{settings});
  ImGui::SetItemTooltip("Plan, execute the first steps, re-plan, to the end of the motion, in the background");
  ImGui::EndDisabled();
  if (busy && job_progress(optimise.mpc->job(), "plans")) optimise.mpc->cancel();
  if (!optimise.mpc) return;
  const auto run = optimise.mpc->latest();
  if (!run->error.empty()) {
    ImGui::TextColored(theme::kErrorText, "%s", run->error.c_str());
    return;
  }
  if (!run->plans.empty()) {
    const MpcPlan& plan = run->plans.back();
    ImGui::Text("plan %zu, steps %d to %d", run->plans.size(), plan.start, plan.start + plan.steps);
    ImGui::Text("window loss %.4g -> %.4g", plan.initial_loss, plan.final_loss);
  }
  if (run->finished) {
    ImGui::Text("executed: loss %.4g", run->executed_loss);
    if (ImGui::Button("Use the Executed Controls")) commands.push(command::ApplyMpc{});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the controls MPC executed become the scene's (one step to undo)");
  }
}

// Gradient descent (or another gradient method) against CMA-ES from the document's
// start, the best loss against the number of simulations, both on one plot.
void comparison_section(OptimiseState& optimise, CommandQueue& commands) {
  // 0: the optimiser the scene's settings name (Adam when they name CMA-ES itself), so the
  // comparison is of the run the user would make, not of a method they did not choose.
  static int method = 0;
  static int budget = 200;
  const OptimizerMethod own = command::CompareMethods::own_gradient_method(optimise.settings);
  const std::string own_label = "the scene's settings (" + std::string(method_label(own)) + ")";
  const char* const methods[] = {own_label.c_str(), kMethodLabels[0], kMethodLabels[1], kMethodLabels[2]};
  ImGui::TextWrapped(
      "The best loss each method reaches against the simulations it runs, from the scene's start, "
      "with the Settings above (learning rate, clip, sigma). A gradient costs one forward and one "
      "backward pass; CMA-ES runs forward passes only.");
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
  ImGui::Combo("against CMA-ES", &method, methods, IM_ARRAYSIZE(methods));
  ImGui::SetItemTooltip("The gradient method to compare: the scene's own optimiser settings, or another");
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
  ImGui::InputInt("simulations", &budget, 50, 500);
  ImGui::SetItemTooltip(
      "The budget both methods get: a gradient costs one forward and one backward pass, a CMA-ES sample one forward "
      "pass");
  budget = std::clamp(budget, 10, 100000);
  const bool busy = optimise.comparison && !optimise.comparison->job().finished();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button("Compare")) {
    const OptimizerMethod gradient = method == 0 ? own : static_cast<OptimizerMethod>(method - 1);
    commands.push(command::CompareMethods::against_cmaes(optimise.settings, gradient, budget));
  }
  ImGui::SetItemTooltip(
      "Run both from the scene's start in the background and plot their best loss against the simulations run");
  ImGui::EndDisabled();
  if (busy && job_progress(optimise.comparison->job(), "simulations")) optimise.comparison->cancel();
  if (!optimise.comparison) return;
  const auto result = optimise.comparison->latest();
  if (!result->error.empty()) {
    ImGui::TextColored(theme::kErrorText, "%s", result->error.c_str());
    return;
  }
  // Both curves on shared axes: simulations across, the best loss so far up (log10 when
  // every value is positive), as steps: the best holds until an iteration improves it.
  bool positive = true;
  for (const auto& curve : result->curves)
    for (const auto& p : curve.points) positive = positive && p.best_loss > 0;
  static const ImVec4 kColours[] = {plot::kFirst, plot::kSecond};
  if (plot::begin("##comparison", 11, "simulations", "best loss", positive)) {
    for (size_t m = 0; m < result->curves.size(); ++m) {
      std::vector<double> xs, ys;
      for (const auto& p : result->curves[m].points) {
        xs.push_back(double(p.simulations));
        ys.push_back(p.best_loss);
      }
      ImPlot::PlotStairs(result->curves[m].label.c_str(), xs.data(), ys.data(), int(xs.size()),
                         plot::line(kColours[m % 2]));
    }
    ImPlot::EndPlot();
  }
  for (size_t m = 0; m < result->curves.size(); ++m) {
    const auto& curve = result->curves[m];
    if (curve.points.empty()) continue;
    ImGui::TextColored(kColours[m % 2], "%s: best %.4g after %d simulations, %.2f s", curve.label.c_str(),
                       curve.points.back().best_loss, curve.points.back().simulations, curve.points.back().seconds);
  }
}

}  // namespace

void draw_optimizer_contents(const studio::Document& document, OptimiseState& optimise, Popups& popups,
                             CommandQueue& commands) {
  const Scene& start = document.scene();
  if (start.params.optimized_size() == 0) {
    ImGui::TextWrapped(
        "Nothing in this scene is marked to optimise (\"optimize\": true on a parameter in the "
        "scene file).");
    return;
  }
  const RunState run = optimise.session ? optimise.session->state() : RunState::Ready;
  const studio::OptimizationSnapshot* snap = optimise.iterate.get();
  const bool running = run == RunState::Running;

  // Controls.
  const float button = ImGui::GetFontSize() * 4.2f;
  ImGui::BeginDisabled(running);
  if (ImGui::Button(run == RunState::Paused ? "Resume" : "Start", ImVec2(button, 0)))
    commands.push(command::OptimizeStart{});
  ImGui::SetItemTooltip(
      "Run the optimiser from the shown iterate (the scene's values at first); the viewport plays each iterate");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!running);
  if (ImGui::Button("Pause", ImVec2(button, 0))) commands.push(command::OptimizePause{});
  ImGui::SetItemTooltip("Stop after the current iteration; Resume goes on with the optimiser's state kept");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(running);
  if (ImGui::Button("Step", ImVec2(button, 0))) commands.push(command::OptimizeStep{});
  ImGui::SetItemTooltip("One iteration, then pause");
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!optimise.session);
  if (ImGui::Button("Reset", ImVec2(button, 0))) commands.push(command::OptimizeReset{});
  ImGui::SetItemTooltip("Back to the run's start (a finished run's result stays in the scene's history: Edit > Undo)");
  ImGui::EndDisabled();

  if (snap) {
    ImGui::Text("%s, iteration %d, %d evaluations", std::string(studio::run_state_name(run)).c_str(), snap->iteration,
                snap->evaluations);
    if (std::isnan(snap->grad_norm))  // a gradient-free method
      ImGui::Text("loss %.6g", snap->loss);
    else
      ImGui::Text("loss %.6g   |grad| %.4g", snap->loss, snap->grad_norm);
    if (!snap->message.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, snap->failed ? theme::kErrorText : theme::kDimText);
      ImGui::TextWrapped("%s", snap->message.c_str());
      ImGui::PopStyleColor();
    }
    if (snap->growth) growth_warning(*snap->growth, snap->scene.settings.steps);
  } else {
    ImGui::TextDisabled(optimise.session ? "evaluating the start..." : "not started");
  }

  if (ImGui::CollapsingHeader("Settings", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (settings_editor(optimise.settings, running) && optimise.session)
      optimise.session->set_settings(optimise.settings);
    ImGui::BeginDisabled(running);
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 7);
    if (ImGui::InputInt("horizon", &optimise.horizon, 10, 100)) {
      optimise.horizon = std::clamp(optimise.horizon, 0, start.settings.steps);
      if (optimise.session) optimise.session->set_horizon(optimise.horizon);
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip(
          "Backpropagate through the last N steps only (0: all %d). A truncated gradient is not the\n"
          "loss's gradient: see View > Adjoint |dL/dx| on the Timeline for what is cut off.",
          start.settings.steps);
    ImGui::PushStyleColor(ImGuiCol_Text, theme::kDimText);
    ImGui::TextWrapped("Settings apply to the next run (after Reset, or Start when finished).");
    ImGui::PopStyleColor();
  }

  if (snap && ImGui::CollapsingHeader("Curves", ImGuiTreeNodeFlags_DefaultOpen)) {
    const bool positive =
        std::all_of(snap->loss_history.begin(), snap->loss_history.end(), [](double v) { return v > 0; });
    ImGui::Checkbox("log scale", &optimise.loss_log_scale);
    ImGui::SetItemTooltip("Plot the loss and gradient norm on log axes (when they are positive)");
    if (optimise.loss_log_scale && !positive) {
      ImGui::SameLine();
      ImGui::TextDisabled("(the loss is not positive: linear)");
    }
    curve("##loss", "loss", snap->loss_history, optimise.loss_log_scale && positive, plot::kFirst);
    if (!snap->grad_norm_history.empty() && !std::isnan(snap->grad_norm_history.back()))  // none for cmaes
      curve("##grad", "|grad|", snap->grad_norm_history, optimise.loss_log_scale, plot::kSecond);
  }

  if (snap && ImGui::CollapsingHeader("Objective", ImGuiTreeNodeFlags_DefaultOpen) &&
      ImGui::BeginTable("terms", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("term");
    ImGui::TableSetupColumn("weight");
    ImGui::TableSetupColumn("loss");
    ImGui::TableHeadersRow();
    for (std::size_t k = 0; k < start.objectives.size(); ++k) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%zu: %s", k, std::string(objective_type_name(start.objectives[k].type)).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.4g", start.objectives[k].weight);
      ImGui::TableNextColumn();
      if (k < snap->term_loss.size()) ImGui::Text("%.6g", snap->term_loss[k]);
    }
    ImGui::EndTable();
  }

  if (snap && ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) {
    // Against the run's start (once a finished run is committed, the document is its result).
    parameter_table(optimise.initial_iterate ? optimise.initial_iterate->scene : start, snap->scene);
    if (optimise.committed && snap == optimise.committed.get()) {
      ImGui::PushStyleColor(ImGuiCol_Text, theme::kDimText);
      ImGui::TextWrapped("The run's result is the scene's: one step of history (Edit > Undo goes back to its start).");
      ImGui::PopStyleColor();
    } else {
      ImGui::BeginDisabled(running || !optimise.unapplied());
      if (ImGui::Button("Apply to the scene")) commands.push(command::ApplyIterate{});
      ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip(
            "Make this iterate's parameters the scene's, as a step of history (a finished run's are, by itself)");
    }
  }

  if (std::exchange(optimise.open_comparison, false)) ImGui::SetNextItemOpen(true);  // a lesson ran it
  if (ImGui::CollapsingHeader("Compare with CMA-ES")) comparison_section(optimise, commands);
  if (optimise.mpc && !optimise.mpc->job().finished())
    ImGui::SetNextItemOpen(true);  // a run started from the command line shows
  if (ImGui::CollapsingHeader("Model Predictive Control")) mpc_section(optimise, commands);

  if (snap && ImGui::CollapsingHeader("Export")) {
    if (ImGui::Button("Loss history (CSV)...")) popups.export_file = command::ExportKind::LossHistoryCsv;
    ImGui::SetItemTooltip("Save the loss and gradient norm of every iteration as CSV");
    if (ImGui::Button("Optimised parameters (JSON)...")) popups.export_file = command::ExportKind::ParametersJson;
    ImGui::SetItemTooltip("Save the optimised parameters' values at the shown iterate as JSON");
    if (ImGui::Button("Optimised scene (JSON)...")) popups.export_file = command::ExportKind::OptimizedScene;
    ImGui::SetItemTooltip("Save the scene with the shown iterate's values as a new scene file");
    if (ImGui::Button("Frames of this iterate (PNG)...")) popups.export_file = command::ExportKind::Frames;
    ImGui::SetItemTooltip("Draw the shown iterate's motion as PNG frames into a folder");
  }
}

}  // namespace nudge::gui
