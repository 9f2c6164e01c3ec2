// One shape of one link with every input the links' contact kernels read, in double, for
// the kernel tests that move each input in turn (particle_link_contact_test,
// material_point_link_test): the shape in its link's frame, the link's frame and spatial
// velocity, and the model the kernels see, placed as the kinematics phase places it.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "families/articulations/link_shape_model.h"
#include "nudge/quat.h"

namespace nudge::test {

struct LinkShapeInputs {
  Collider<double> shape{};
  std::vector<double> planes;  // a hull's, 4 per face
  Vec3<double> pos{0.02, -0.01, 0.05};
  Mat33<double> rot = to_matrix(normalize(Quat<double>{0.1, -0.2, 0.3, 0.9}));
  Mat33<double> link_rot = to_matrix(normalize(Quat<double>{-0.3, 0.1, 0.2, 0.8}));
  Vec3<double> origin{0.3, 0.9, -0.2};
  Spatial<double> velocity{{0.4, -1.1, 0.7}, {0.5, 0.2, -0.3}};
  double link_mass = 0.7;

  // The model the kernels see (it points into itself and into these inputs: not copied).
  struct View {
    LinkShapeModel<double> ls;
    int link = 0, start[2] = {0, 1};
    double bound = 10;
    LinkMotion<double> motion;
    ShapePlacement<double> placement;
    Collider<double> shape;
    Spatial<double> adj{{0, 0, 0}, {0, 0, 0}};
  };
  void fill(View& view) const {
    view.shape = shape;
    if (shape.type == ShapeType::Convex) view.shape.planes = planes.data();
    view.motion = {link_rot, origin, velocity};
    view.placement = {link_rot * rot, origin + link_rot * pos};
    LinkShapeModel<double>& ls = view.ls;
    ls.count = 1, ls.links = 1;
    ls.shape = &view.shape, ls.link = &view.link, ls.shape_start = view.start;
    ls.pos = &pos, ls.rot = &rot, ls.bound = &view.bound, ls.link_mass = &link_mass;
    ls.motion = &view.motion, ls.placement = &view.placement, ls.adj_wrench = &view.adj;
  }
};

// A turn by the rotation vector w.
inline Mat33<double> turned(Vec3<double> w) {
  const double angle = length(w);
  return angle == 0 ? identity33<double>() : to_matrix(quat_from_axis_angle((1.0 / angle) * w, angle));
}

// A hull's face planes (4 per face) with the hull scaled by e^s along axis c.
inline void scale_hull(std::vector<double>& planes, int c, double s) {
  for (size_t f = 0; f < planes.size(); f += 4) {
    planes[f + size_t(c)] /= std::exp(s);
    const double norm =
        std::sqrt(planes[f] * planes[f] + planes[f + 1] * planes[f + 1] + planes[f + 2] * planes[f + 2]);
    for (size_t k = 0; k < 4; ++k) planes[f + k] /= norm;
  }
}

}  // namespace nudge::test
