// The links' shapes as solids that particles meet (particle_link_contact.h), on the host:
// each colliding shape as a collider in its own frame, placed in its link's frame, at
// the links' sizes (resized_link_shape). A sphere, a box and a capsule are the colliders
// of those shapes (a capsule's axis is the shape's z, the collider's y); a cylinder is
// the capsule around it, as its contact points meet colliders; a mesh is its hull's
// face planes, scaled by its mesh_scale.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "families/articulations/articulation_links.h"
#include "families/colliders/collider_model.h"
#include "nudge/articulations.h"
#include "nudge/convex_mesh.h"
#include "nudge/scene.h"

namespace nudge {

struct LinkSolidShapes {
  std::vector<int> start;  // per link, and one past the last: its shapes' range
  std::vector<int> link;
  std::vector<Collider<double>> shape;  // a convex shape's planes pointer unset: see plane_start
  std::vector<int> plane_start;         // per shape: its first plane in planes (4 values each)
  std::vector<double> planes;
  std::vector<Vec3<double>> pos;
  std::vector<Mat33<double>> rot;
  std::vector<double> bound;
  size_t count() const { return link.size(); }
};

// Whether a shape is a solid: it collides (and a mesh has its hull).
inline bool is_solid(const LinkShape& shape) {
  return shape.collides && (shape.kind != LinkShape::Kind::Mesh || shape.hull);
}

inline bool has_solid_link_shapes(const Articulations& a) {
  for (const ArticulationLink& link : a.links)
    for (const LinkShape& shape : link.shapes)
      if (is_solid(shape)) return true;
  return false;
}

// Whether a scene's material points meet its links' solids: a 3D grid (a 2D grid's
// masses are per unit depth, and the scene check refuses one with solids).
inline bool material_points_meet_links(const Scene& scene) {
  return scene.material_points.count() > 0 && scene.material_points.dims == 3 &&
         has_solid_link_shapes(scene.articulations);
}

inline size_t solid_link_shape_count(const Articulations& a) {
  size_t n = 0;
  for (const ArticulationLink& link : a.links)
    for (const LinkShape& shape : link.shapes) n += is_solid(shape) ? 1 : 0;
  return n;
}

inline LinkSolidShapes link_solid_shapes(const Articulations& a, const ParameterSet& p) {
  LinkSolidShapes out;
  // The collider's y onto the shape's z: a quarter turn about x.
  const Mat33<double> y_to_z{{1, 0, 0, 0, 0, -1, 0, 1, 0}};
  for (size_t k = 0; k < a.links.size(); ++k) {
    out.start.push_back(static_cast<int>(out.count()));
    for (const LinkShape& given : a.links[k].shapes) {
      if (!is_solid(given)) continue;
      const LinkShape shape = resized_link_shape(given, a.links[k], link_size(p, k));
      Collider<double> c{};
      for (int e = 0; e < 9; ++e) c.rotation[e] = e % 4 == 0 ? 1.0 : 0.0;
      Mat33<double> rot =
          to_matrix(normalize(Quat<double>{shape.quat[0], shape.quat[1], shape.quat[2], shape.quat[3]}));
      double bound = 0;
      const double* size = shape.size;
      switch (shape.kind) {
        case LinkShape::Kind::Sphere: c.type = ShapeType::Sphere, c.size[0] = size[0], bound = size[0]; break;
        case LinkShape::Kind::Capsule:
        case LinkShape::Kind::Cylinder:
          c.type = ShapeType::Capsule, c.size[0] = size[0], c.size[1] = size[1], bound = size[0] + size[1];
          rot = rot * y_to_z;
          break;
        case LinkShape::Kind::Box:
          c.type = ShapeType::Box;
          for (int e = 0; e < 3; ++e) c.size[e] = size[e];
          bound = std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
          break;
        case LinkShape::Kind::Mesh: {
          // n . q <= d at q = S^-1 q': (S^-1 n) . q' <= d, normalised.
          c.type = ShapeType::Convex;
          c.plane_count = static_cast<int>(shape.hull->planes.size());
          out.plane_start.push_back(static_cast<int>(out.planes.size()));
          const double* s = shape.mesh_scale;
          for (const ConvexPlane& f : shape.hull->planes) {
            const Vec3<double> n{f.normal[0] / s[0], f.normal[1] / s[1], f.normal[2] / s[2]};
            const double len = length(n);
            out.planes.insert(out.planes.end(), {n.x / len, n.y / len, n.z / len, f.offset / len});
          }
          for (const std::array<double, 3>& v : shape.hull->vertices)
            bound = std::max(bound, length(Vec3<double>{v[0] * s[0], v[1] * s[1], v[2] * s[2]}));
          break;
        }
      }
      if (c.type != ShapeType::Convex) out.plane_start.push_back(static_cast<int>(out.planes.size()));
      out.link.push_back(static_cast<int>(k));
      out.shape.push_back(c);
      out.pos.push_back({shape.pos[0], shape.pos[1], shape.pos[2]});
      out.rot.push_back(rot);
      out.bound.push_back(bound);
    }
  }
  out.start.push_back(static_cast<int>(out.count()));
  return out;
}

// dL/d(each solid's centre, turn and collider size, in its link's frame, as
// ParticleLinkAdjoint has them) to its link's link_scale and link_length, through
// resized_link_shape: the centre moves about the anchor; a radius grows by the scale; a
// capsule's (or cylinder's) length is |A w| for its half axis w, whose direction turns as
// the link stretches; a box's half extent and a mesh's scale along each of its axes e
// grow by |A e|.
inline void add_solid_shape_size_grad(const Articulations& a, const ParameterSet& p, std::span<const double> centre,
                                      std::span<const double> turn, std::span<const double> size,
                                      std::vector<double>& scale_grad, std::vector<double>& length_grad) {
  size_t j = 0;
  for (size_t k = 0; k < a.links.size(); ++k) {
    const LinkResize resize = link_resize(a, p, k);
    const double s = resize.scale;
    double& d_scale = scale_grad[k];
    double& d_length = length_grad[k];
    // |A w|, its derivatives in s and l, and the turn of its direction per unit of l.
    struct Reach {
      double value, d_scale, d_length;
      Vec3<double> turn;
    };
    const auto reach = [&](Vec3<double> w) {
      const Vec3<double> aw = resize.linear(w), a_l = (s * dot(resize.axis, w)) * resize.axis;
      const double h = length(aw);
      const Vec3<double> e = (1.0 / h) * aw;
      return Reach{h, h / s, dot(aw, a_l) / h, cross(e, (1.0 / h) * (a_l - dot(e, a_l) * e))};
    };
    for (const LinkShape& shape : a.links[k].shapes) {
      if (!is_solid(shape)) continue;
      const Vec3<double> g_centre{centre[3 * j], centre[3 * j + 1], centre[3 * j + 2]};
      const Vec3<double> g_turn{turn[3 * j], turn[3 * j + 1], turn[3 * j + 2]};
      const double* g = &size[3 * j];
      resize.add_point_grad({shape.pos[0], shape.pos[1], shape.pos[2]}, g_centre, d_scale, d_length);
      const Quat<double> q = normalize(Quat<double>{shape.quat[0], shape.quat[1], shape.quat[2], shape.quat[3]});
      const Vec3<double> axes[3] = {rotate(q, Vec3<double>{1, 0, 0}), rotate(q, Vec3<double>{0, 1, 0}),
                                    rotate(q, Vec3<double>{0, 0, 1})};
      switch (shape.kind) {
        case LinkShape::Kind::Sphere: d_scale += g[0] * shape.size[0]; break;
        case LinkShape::Kind::Capsule:
        case LinkShape::Kind::Cylinder: {
          d_scale += g[0] * shape.size[0];
          if (shape.size[1] <= 0) break;
          const Reach half = reach(shape.size[1] * axes[2]);
          d_scale += g[1] * half.d_scale;
          d_length += g[1] * half.d_length + dot(g_turn, half.turn);
          break;
        }
        case LinkShape::Kind::Box:
          for (int c = 0; c < 3; ++c) {
            const Reach along = reach(axes[c]);
            d_scale += g[c] * along.d_scale * shape.size[c];
            d_length += g[c] * along.d_length * shape.size[c];
          }
          break;
        case LinkShape::Kind::Mesh:  // g: per log of its scale along each axis
          for (int c = 0; c < 3; ++c) {
            const Reach along = reach(axes[c]);
            d_scale += g[c] * along.d_scale / along.value;
            d_length += g[c] * along.d_length / along.value;
          }
          break;
      }
      ++j;
    }
  }
}

}  // namespace nudge
