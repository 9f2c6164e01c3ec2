// The "triangles" section (cloth membranes: indices and per-triangle stiffness, area
// stiffness, damping, drag and lift): how it is read from a scene file, written back
// and checked. The rest shape is the triangles' shape in the initial positions, so a
// triangle must not be degenerate there.
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "io/scene_section.h"
#include "io/scene_sections.h"

namespace nudge::scene_io {

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_triangles(const std::optional<Node>& node, Scene& scene) const {
  if (!node) return;
  expect_object(*node, section_keys("triangles", {"indices"}));
  const Node indices = required(*node, "indices", "an array of [a, b, c] particle index triples");
  expect_array(indices, "an array of [a, b, c] particle index triples");
  const std::size_t count = indices.size();
  for (std::size_t k = 0; k < count; ++k) {
    const Node triple = indices.element(k);
    if (!triple.json.is_array() || triple.size() != 3) fail_found(triple, "a triple [a, b, c] of particle indices");
    int abc[3];
    for (std::size_t c = 0; c < 3; ++c) abc[c] = particle_index(triple.element(c));
    if (abc[0] == abc[1] || abc[1] == abc[2] || abc[0] == abc[2])
      fail(triple.path, "found particles " + std::to_string(abc[0]) + ", " + std::to_string(abc[1]) + ", " +
                            std::to_string(abc[2]) + "; expected three different particles");
    scene.triangles.insert(scene.triangles.end(), abc, abc + 3);
  }
  read_param_columns(*node, scene, "triangles", count);
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson triangles_json(const Scene& scene) {
  OrderedJson triangles;
  OrderedJson indices = OrderedJson::array();
  for (int t = 0; t < scene.triangle_count(); ++t)
    indices.push_back(
        {scene.triangles[3 * size_t(t)], scene.triangles[3 * size_t(t) + 1], scene.triangles[3 * size_t(t) + 2]});
  triangles["indices"] = indices;
  write_param_columns(triangles, scene, "triangles");
  return triangles;
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_triangles(const Scene& scene) {
  if (scene.triangles.size() % 3 != 0)
    return "triangles.indices: found " + std::to_string(scene.triangles.size()) + " indices; expected 3 per triangle";
  const int n = scene.particle_count();
  const std::vector<double>& x = scene.params[ParamId::InitialPosition].value;
  const std::string particle_range = "a particle index in [0, " + std::to_string(n) + ")";
  for (int t = 0; t < scene.triangle_count(); ++t) {
    const std::string triple = index_path("triangles.indices", t);
    const int* abc = &scene.triangles[3 * size_t(t)];
    for (int c = 0; c < 3; ++c)
      if (abc[c] < 0 || abc[c] >= n) return found(index_path(triple, c), abc[c], particle_range);
    if (abc[0] == abc[1] || abc[1] == abc[2] || abc[0] == abc[2])
      return triple + ": found particles " + std::to_string(abc[0]) + ", " + std::to_string(abc[1]) + ", " +
             std::to_string(abc[2]) + "; expected three different particles";
    if (x.size() != 3 * size_t(n)) continue;  // check_parameters reports the shape
    double e[2][3];
    for (int k = 0; k < 3; ++k) {
      e[0][k] = x[3 * size_t(abc[1]) + k] - x[3 * size_t(abc[0]) + k];
      e[1][k] = x[3 * size_t(abc[2]) + k] - x[3 * size_t(abc[0]) + k];
    }
    const double area = 0.5 * std::hypot(e[0][1] * e[1][2] - e[0][2] * e[1][1], e[0][2] * e[1][0] - e[0][0] * e[1][2],
                                         e[0][0] * e[1][1] - e[0][1] * e[1][0]);
    if (!(area > 0) || !std::isfinite(area))
      return triple + ": found particles " + std::to_string(abc[0]) + ", " + std::to_string(abc[1]) + ", " +
             std::to_string(abc[2]) + " on one line in the initial positions (area " + number_text(area) +
             "); expected a triangle of positive area, its rest shape";
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kTrianglesSection{
    "triangles",
    ReadStage::Elements,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      in.reader.read_triangles(in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.triangle_count() > 0 ? triangles_json(scene) : OrderedJson(); },
    CheckStage::Elements,
    check_triangles};

}  // namespace nudge::scene_io
