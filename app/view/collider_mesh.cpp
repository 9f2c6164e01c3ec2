#include "view/collider_mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/gtc/quaternion.hpp>

namespace nudge::view {

namespace {

glm::vec3 vec(const double* v) {
  return {static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])};
}

// Appends a quad (corners in counter-clockwise order seen from outside) with its own
// flat normal.
void add_quad(render::Mesh& mesh, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
  const auto first = static_cast<std::uint32_t>(mesh.positions.size());
  mesh.positions.insert(mesh.positions.end(), {a, b, c, d});
  mesh.normals.insert(mesh.normals.end(), {n, n, n, n});
  mesh.indices.insert(mesh.indices.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
}

// A sphere of radius r around the origin, stretched along y by `stretch` between its
// two halves (0 for a sphere, the half length for a capsule): rings of latitude, the
// upper half moved up by stretch and the lower down, so the band between them is the
// capsule's cylinder. Smooth normals are those of the sphere.
void add_rounded(render::Mesh& mesh, float r, float stretch) {
  constexpr int kRings = 16, kSegments = 24;  // kRings even: the equator is a ring twice
  const auto first = static_cast<std::uint32_t>(mesh.positions.size());
  int rows = 0;
  for (int i = 0; i <= kRings; ++i) {
    const float theta = std::numbers::pi_v<float> * static_cast<float>(i) / kRings;  // from +y down
    // The equator appears once per half, so the cylinder between them is flat-sided.
    for (int copy = 0; copy < (i == kRings / 2 && stretch > 0 ? 2 : 1); ++copy) {
      const float shift = (i < kRings / 2 || (i == kRings / 2 && copy == 0)) ? stretch : -stretch;
      for (int j = 0; j <= kSegments; ++j) {
        const float phi = 2 * std::numbers::pi_v<float> * static_cast<float>(j) / kSegments;
        const glm::vec3 n{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
        mesh.positions.push_back(r * n + glm::vec3(0, shift, 0));
        mesh.normals.push_back(n);
      }
      ++rows;
    }
  }
  for (int i = 0; i + 1 < rows; ++i)
    for (int j = 0; j < kSegments; ++j) {
      const std::uint32_t a = first + i * (kSegments + 1) + j, b = a + kSegments + 1;
      mesh.indices.insert(mesh.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
    }
}

// A cylinder of radius r along y from -h to h: its side (smooth normals, two rings) and
// its two flat caps (a fan each).
void add_cylinder(render::Mesh& mesh, float r, float h) {
  constexpr int kSegments = 24;
  const auto ring = [&](float y, float ny, bool side) {
    for (int j = 0; j <= kSegments; ++j) {
      const float phi = 2 * std::numbers::pi_v<float> * static_cast<float>(j) / kSegments;
      const glm::vec3 out{std::cos(phi), 0, std::sin(phi)};
      mesh.positions.push_back(r * out + glm::vec3(0, y, 0));
      mesh.normals.push_back(side ? out : glm::vec3(0, ny, 0));
    }
  };
  const auto side = static_cast<std::uint32_t>(mesh.positions.size());
  ring(h, 0, true);
  ring(-h, 0, true);
  for (std::uint32_t j = 0; j < kSegments; ++j) {
    const std::uint32_t a = side + j, b = a + kSegments + 1;  // the top ring's, the bottom's
    mesh.indices.insert(mesh.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
  }
  for (const float y : {h, -h}) {  // counter-clockwise seen from outside
    const float ny = y > 0 ? 1.0f : -1.0f;
    const auto centre = static_cast<std::uint32_t>(mesh.positions.size());
    mesh.positions.push_back({0, y, 0});
    mesh.normals.push_back({0, ny, 0});
    ring(y, ny, false);
    for (std::uint32_t j = 0; j < kSegments; ++j) {
      const std::uint32_t a = centre + 1 + j;
      if (y > 0)
        mesh.indices.insert(mesh.indices.end(), {centre, a + 1, a});
      else
        mesh.indices.insert(mesh.indices.end(), {centre, a, a + 1});
    }
  }
}

}  // namespace

render::Mesh cylinder_mesh(double radius, double half_length, const double* position, const double* orientation,
                           render::Rgba color) {
  render::Mesh mesh;
  mesh.colors = {color};
  add_cylinder(mesh, static_cast<float>(radius), static_cast<float>(half_length));
  const glm::quat q(static_cast<float>(orientation[3]), static_cast<float>(orientation[0]),
                    static_cast<float>(orientation[1]), static_cast<float>(orientation[2]));
  const glm::vec3 p = vec(position);
  for (glm::vec3& v : mesh.positions) v = q * v + p;
  for (glm::vec3& n : mesh.normals) n = q * n;
  return mesh;
}

render::Mesh collider_mesh(const ColliderShape& shape, glm::vec3 patch_center, float patch_half_size,
                           render::Rgba color) {
  render::Mesh mesh;
  mesh.colors = {color};
  if (shape.type == ColliderType::Plane) {
    const glm::vec3 n = glm::normalize(vec(shape.normal));
    // The patch's centre is the point of the plane nearest the motion's centre.
    const glm::vec3 center = patch_center - (glm::dot(n, patch_center) - static_cast<float>(shape.offset)) * n;
    const glm::vec3 helper = std::fabs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const glm::vec3 t1 = glm::normalize(glm::cross(helper, n)) * patch_half_size;
    const glm::vec3 t2 = glm::cross(n, glm::normalize(t1)) * patch_half_size;
    add_quad(mesh, center - t1 - t2, center - t1 + t2, center + t1 + t2, center + t1 - t2);
    return mesh;
  }
  switch (shape.type) {
    case ColliderType::Box: {
      const glm::vec3 e = vec(shape.half_extents);
      const auto corner = [&](float sx, float sy, float sz) { return glm::vec3(sx * e.x, sy * e.y, sz * e.z); };
      add_quad(mesh, corner(1, -1, -1), corner(1, 1, -1), corner(1, 1, 1), corner(1, -1, 1));      // +x
      add_quad(mesh, corner(-1, -1, 1), corner(-1, 1, 1), corner(-1, 1, -1), corner(-1, -1, -1));  // -x
      add_quad(mesh, corner(-1, 1, -1), corner(-1, 1, 1), corner(1, 1, 1), corner(1, 1, -1));      // +y
      add_quad(mesh, corner(-1, -1, 1), corner(-1, -1, -1), corner(1, -1, -1), corner(1, -1, 1));  // -y
      add_quad(mesh, corner(-1, -1, 1), corner(1, -1, 1), corner(1, 1, 1), corner(-1, 1, 1));      // +z
      add_quad(mesh, corner(1, -1, -1), corner(-1, -1, -1), corner(-1, 1, -1), corner(1, 1, -1));  // -z
      break;
    }
    case ColliderType::Sphere: add_rounded(mesh, static_cast<float>(shape.radius), 0); break;
    case ColliderType::Capsule:
      add_rounded(mesh, static_cast<float>(shape.radius), static_cast<float>(shape.half_length));
      break;
    case ColliderType::Plane: break;
  }
  // Into the world: turn by the orientation (x, y, z, w), then move.
  const glm::quat q(static_cast<float>(shape.orientation[3]), static_cast<float>(shape.orientation[0]),
                    static_cast<float>(shape.orientation[1]), static_cast<float>(shape.orientation[2]));
  const glm::vec3 p = vec(shape.position);
  for (glm::vec3& v : mesh.positions) v = q * v + p;
  for (glm::vec3& n : mesh.normals) n = q * n;
  return mesh;
}

render::Mesh body_mesh(const RigidBody& body, const ShapeSize& size, const double* position, const double* orientation,
                       render::Rgba color) {
  if (body.shape == BodyShape::Mesh) return hull_mesh(body.mesh->hull, position, orientation, color);
  ColliderShape shape;  // the same shapes, placed by the body's pose
  shape.type = body.shape == BodyShape::Box       ? ColliderType::Box
               : body.shape == BodyShape::Capsule ? ColliderType::Capsule
                                                  : ColliderType::Sphere;
  std::copy(size.begin(), size.end(), shape.half_extents);
  shape.radius = size[0];
  shape.half_length = size[1];
  std::copy(position, position + 3, shape.position);
  std::copy(orientation, orientation + 4, shape.orientation);
  return collider_mesh(shape, {0, 0, 0}, 0, color);
}

render::Mesh hull_mesh(const ConvexMesh& hull, const double* position, const double* orientation, render::Rgba color,
                       const double* scale) {
  render::Mesh mesh;
  mesh.colors = {color};
  const glm::quat q(static_cast<float>(orientation[3]), static_cast<float>(orientation[0]),
                    static_cast<float>(orientation[1]), static_cast<float>(orientation[2]));
  const glm::vec3 p = vec(position), stretch = scale ? vec(scale) : glm::vec3(1.0f);
  // Flat shading: each triangle has its own three vertices and its face's normal.
  for (const std::array<int, 3>& t : hull.triangles) {
    glm::vec3 corner[3];
    for (int k = 0; k < 3; ++k) corner[k] = q * (stretch * vec(hull.vertices[size_t(t[size_t(k)])].data())) + p;
    const glm::vec3 n = glm::normalize(glm::cross(corner[1] - corner[0], corner[2] - corner[0]));
    const auto first = static_cast<std::uint32_t>(mesh.positions.size());
    mesh.positions.insert(mesh.positions.end(), {corner[0], corner[1], corner[2]});
    mesh.normals.insert(mesh.normals.end(), {n, n, n});
    mesh.indices.insert(mesh.indices.end(), {first, first + 1, first + 2});
  }
  return mesh;
}

}  // namespace nudge::view
