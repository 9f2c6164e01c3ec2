// View > Colour Elements By: the cloth's triangles and the soft bodies' surface faces
// coloured per element, by stress (view/element_stress.h, on the sequential map from 0)
// or by the gradient of a per-element parameter (triangle, bending edge, tet or material
// point: the last gradient evaluation's dL/dparam, on the diverging map centred at 0, as
// the springs' gradient overlay), and material points by their speed at the frame (on
// the sequential map from 0), each family with a legend of its scale. A tet colours the
// surface faces it bounds (inner tets are hidden); a bending edge colours the line of
// the edge its two triangles share.
#pragma once

#include <string>
#include <vector>

#include "nudge/render/draw_list.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "view/scene_draw.h"

namespace nudge::view {

struct ElementColoring {
  enum class Kind { None, Stress, Speed, Gradient };
  Kind kind = Kind::None;
  ParamId param = ParamId::Count;  // Gradient: the parameter, one value per element
  friend bool operator==(ElementColoring, ElementColoring) = default;
};

// None, Stress, Speed, then the gradient of every one-value-per-element parameter of
// triangles, bending edges, tets and material points, in ParamId order.
const std::vector<ElementColoring>& element_colorings();
// "None", "Stress (energy density)", "dL/d tet mu".
std::string element_coloring_label(ElementColoring coloring);
// Whether the scene has elements it colours (None always applies).
bool element_coloring_applies(ElementColoring coloring, const Scene& scene);

// A copy of `shared` (one colour, indexed) in which every triangle has three vertices of
// its own, coloured face_colors[f]; the normals are the shared mesh's smooth ones, so it
// looks as smooth as before.
render::Mesh mesh_with_face_colors(const render::Mesh& shared, const std::vector<render::Rgba>& face_colors);

// The half range of the diverging map for these gradients: their largest |g| (1 when all
// are 0); 0 when one is not finite (then nothing is coloured).
float gradient_half_range(const std::vector<double>& grad);

// Recolours the cloth and soft-body meshes of `list` (drawn by scene_draw_list with
// `options` at step `step` of traj) and adds their legends. The gradients are those in
// `gradients`' parameters (the scene of the last gradient evaluation, the same elements
// as `scene`); null, or without the rows: nothing is coloured by gradient.
void add_element_colors(render::DrawList& list, ElementColoring coloring, const Scene& scene, const Trajectory* traj,
                        int step, const SceneDrawOptions& options, const Scene* gradients);

}  // namespace nudge::view
