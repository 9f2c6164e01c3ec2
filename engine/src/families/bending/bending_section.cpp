// The "bending" section (bending edges between neighbouring triangles: which four
// particles, and each edge's stiffness and damping): how it is read from a scene file,
// written back and checked. "edges": "triangles" finds the triangles' interior edges
// as Warp's cloth meshes do (find_bending_edges); the file is written that way again
// whenever the edges are still exactly those, so a cloth's file stays short.
#include <cstddef>
#include <string>
#include <vector>

#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "families/bending/dihedral_bending.h"

namespace nudge {

std::vector<int> bending_edges_of_triangles(const std::vector<int>& triangles) {
  const int count = static_cast<int>(triangles.size() / 3);
  std::vector<BendingEdge> found(3 * size_t(count) / 2 + 1);
  found.resize(size_t(find_bending_edges(triangles.data(), count, found.data())));
  std::vector<int> out;
  out.reserve(4 * found.size());
  for (const BendingEdge& e : found) out.insert(out.end(), {e.o0, e.o1, e.v0, e.v1});
  return out;
}

namespace scene_io {

namespace {

std::vector<int> edges_of_triangles(const Scene& scene) { return bending_edges_of_triangles(scene.triangles); }

std::string quadruple_text(const int* q) {
  return std::to_string(q[0]) + ", " + std::to_string(q[1]) + ", " + std::to_string(q[2]) + ", " + std::to_string(q[3]);
}

}  // namespace

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_bending(const std::optional<Node>& node, Scene& scene) const {
  if (!node) return;
  expect_object(*node, section_keys("bending", {"edges"}));
  const char* edges_expected =
      "\"triangles\" (the triangles' interior edges) or an array of [o0, o1, v0, v1] particle indices (v0-v1 the "
      "shared edge, o0 and o1 the vertices opposite it)";
  const Node edges = required(*node, "edges", edges_expected);
  if (edges.json.is_string()) {
    if (edges.json.get_ref<const std::string&>() != "triangles") fail_found(edges, edges_expected);
    if (scene.triangle_count() == 0) fail(edges.path, "found \"triangles\" but the scene has no triangles");
    scene.bending = edges_of_triangles(scene);
  } else {
    expect_array(edges, edges_expected);
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const Node quad = edges.element(k);
      if (!quad.json.is_array() || quad.size() != 4) fail_found(quad, "[o0, o1, v0, v1]: four particle indices");
      int q[4];
      for (std::size_t c = 0; c < 4; ++c) q[c] = particle_index(quad.element(c));
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
          if (q[a] == q[b])
            fail(quad.path, "found particles " + quadruple_text(q) + "; expected four different particles");
      scene.bending.insert(scene.bending.end(), q, q + 4);
    }
  }
  const std::size_t count = scene.bending.size() / 4;
  read_param_columns(*node, scene, "bending", count);
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson bending_json(const Scene& scene) {
  OrderedJson bending;
  if (scene.triangle_count() > 0 && scene.bending == edges_of_triangles(scene)) {
    bending["edges"] = "triangles";
  } else {
    OrderedJson edges = OrderedJson::array();
    for (int e = 0; e < scene.bending_count(); ++e) {
      const int* q = &scene.bending[4 * size_t(e)];
      edges.push_back({q[0], q[1], q[2], q[3]});
    }
    bending["edges"] = edges;
  }
  write_param_columns(bending, scene, "bending");
  return bending;
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_bending(const Scene& scene) {
  if (scene.bending.size() % 4 != 0)
    return "bending.edges: found " + std::to_string(scene.bending.size()) + " indices; expected 4 per edge";
  const int n = scene.particle_count();
  const std::string particle_range = "a particle index in [0, " + std::to_string(n) + ")";
  for (int e = 0; e < scene.bending_count(); ++e) {
    const std::string quad = index_path("bending.edges", e);
    const int* q = &scene.bending[4 * size_t(e)];
    for (int c = 0; c < 4; ++c)
      if (q[c] < 0 || q[c] >= n) return found(index_path(quad, c), q[c], particle_range);
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (q[a] == q[b])
          return quad + ": found particles " + quadruple_text(q) + "; expected four different particles";
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kBendingSection{
    "bending",
    ReadStage::Elements,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      in.reader.read_bending(in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.bending_count() > 0 ? bending_json(scene) : OrderedJson(); },
    CheckStage::Elements,
    check_bending};

}  // namespace scene_io
}  // namespace nudge
