// The joint coordinates of a scene's articulations (nudge/articulations.h): each joint's
// entries of qd and of q, in link order; a link's shapes at its size.
#include "nudge/articulations.h"

#include <algorithm>

#include "families/articulations/link_resize.h"
#include "nudge/quat.h"

namespace nudge {

namespace {

// The turn that takes z to the unit direction `to` (by the shorter way; about x when `to`
// is -z).
Quat<double> turn_from_z(Vec3<double> to) {
  const Vec3<double> z{0, 0, 1};
  const double c = dot(z, to);
  if (c < -1 + 1e-12) return {1, 0, 0, 0};
  return normalize(quat_from(cross(z, to), 1 + c));
}

}  // namespace

int drawn_shape_count(const ArticulationLink& link) {
  return static_cast<int>(
      std::count_if(link.shapes.begin(), link.shapes.end(), [](const LinkShape& s) { return s.drawn; }));
}

LinkShape resized_link_shape(const LinkShape& shape, const ArticulationLink& link, LinkSize size) {
  LinkShape out = shape;
  const LinkResize resize = link_resize(link, size.scale, size.length);
  if (resize.identity()) return out;  // bit for bit, as the kernels' points (articulation_links.h)
  const Quat<double> q = normalize(Quat<double>{shape.quat[0], shape.quat[1], shape.quat[2], shape.quat[3]});
  const Vec3<double> centre = resize.point({shape.pos[0], shape.pos[1], shape.pos[2]});
  out.pos[0] = centre.x, out.pos[1] = centre.y, out.pos[2] = centre.z;
  if (!resize.stretched()) {  // every size by the scale
    for (int c = 0; c < 3; ++c) out.size[c] *= resize.scale, out.mesh_scale[c] *= resize.scale;
    return out;
  }
  // How far each of the shape's axes reaches once resized (s where nothing stretches).
  const auto reach = [&](Vec3<double> e) { return length(resize.linear(rotate(q, e))); };
  switch (shape.kind) {
    case LinkShape::Kind::Sphere: out.size[0] = resize.scale * shape.size[0]; break;
    case LinkShape::Kind::Capsule:
    case LinkShape::Kind::Cylinder: {  // its ends move; its radius grows by the scale alone
      out.size[0] = resize.scale * shape.size[0];
      const Vec3<double> half = resize.linear(rotate(q, Vec3<double>{0, 0, shape.size[1]}));
      const double h = length(half);
      out.size[1] = h;
      if (h > 0) {
        const Quat<double> turned = turn_from_z((1.0 / h) * half);
        out.quat[0] = turned.x, out.quat[1] = turned.y, out.quat[2] = turned.z, out.quat[3] = turned.w;
      }
      break;
    }
    case LinkShape::Kind::Box:
    case LinkShape::Kind::Mesh: {
      const double along[3] = {reach({1, 0, 0}), reach({0, 1, 0}), reach({0, 0, 1})};
      for (int c = 0; c < 3; ++c) {
        if (shape.kind == LinkShape::Kind::Box)
          out.size[c] = along[c] * shape.size[c];
        else
          out.mesh_scale[c] = along[c] * shape.mesh_scale[c];
      }
      break;
    }
  }
  return out;
}

std::string_view articulation_joint_name(ArticulationJoint joint) {
  switch (joint) {
    case ArticulationJoint::Weld: return "weld";
    case ArticulationJoint::Hinge: return "hinge";
    case ArticulationJoint::Slide: return "slide";
    case ArticulationJoint::Ball: return "ball";
    case ArticulationJoint::Free: return "free";
  }
  return "weld";
}

int joint_velocity_count(ArticulationJoint joint) {
  switch (joint) {
    case ArticulationJoint::Weld: return 0;
    case ArticulationJoint::Hinge:
    case ArticulationJoint::Slide: return 1;
    case ArticulationJoint::Ball: return 3;
    case ArticulationJoint::Free: return 6;
  }
  return 0;
}

int joint_position_count(ArticulationJoint joint) {
  return joint == ArticulationJoint::Ball ? 4 : joint == ArticulationJoint::Free ? 7 : joint_velocity_count(joint);
}

namespace {

std::vector<int> first_entries(const Articulations& a, int (*count)(ArticulationJoint)) {
  std::vector<int> index;
  int next = 0;
  for (const ArticulationLink& l : a.links) {
    index.push_back(count(l.joint) > 0 ? next : -1);
    next += count(l.joint);
  }
  return index;
}

int total(const Articulations& a, int (*count)(ArticulationJoint)) {
  int n = 0;
  for (const ArticulationLink& l : a.links) n += count(l.joint);
  return n;
}

}  // namespace

std::vector<int> articulation_coordinates(const Articulations& a) { return first_entries(a, joint_velocity_count); }
int articulation_coordinate_count(const Articulations& a) { return total(a, joint_velocity_count); }
std::vector<int> articulation_positions(const Articulations& a) { return first_entries(a, joint_position_count); }
int articulation_position_count(const Articulations& a) { return total(a, joint_position_count); }

}  // namespace nudge
