// Body shape names, mesh bodies from OBJ files, shape sizes, and mass properties with
// their derivatives.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "io/obj_file.h"
#include "nudge/bodies.h"

namespace nudge {

namespace {
constexpr std::string_view kShapeNames[] = {"sphere", "box", "capsule", "mesh"};
constexpr int kShapeCount = 4;
}  // namespace

std::string_view body_shape_name(BodyShape shape) { return kShapeNames[static_cast<int>(shape)]; }

std::optional<BodyShape> body_shape_from_name(std::string_view name) {
  for (int i = 0; i < kShapeCount; ++i)
    if (kShapeNames[i] == name) return static_cast<BodyShape>(i);
  return std::nullopt;
}

Result<std::shared_ptr<const BodyMesh>> load_body_mesh(const std::filesystem::path& file,
                                                       const std::filesystem::path& resolved, const double scale[3]) {
  Result<std::vector<std::array<double, 3>>> points = read_obj_vertices(resolved);
  if (!points) return points.error();
  for (auto& p : *points)
    for (int k = 0; k < 3; ++k) p[k] *= scale[k];
  const bool scaled = scale[0] != 1 || scale[1] != 1 || scale[2] != 1;
  std::ostringstream after;  // the scale, where it may be what went wrong
  if (scaled) after << " (after scaling by [" << scale[0] << ", " << scale[1] << ", " << scale[2] << "])";
  // Coordinates whose squares overflow would make every distance infinite.
  constexpr double kLargest = 1e15;  // m
  for (size_t i = 0; i < points->size(); ++i)
    for (double c : (*points)[i])
      if (!(std::fabs(c) <= kLargest))
        return Error{resolved.string() + after.str() + ": vertex " + std::to_string(i + 1) + " has a coordinate of " +
                     (std::ostringstream() << c).str() + " m; expected coordinates within 1e15 m"};
  Result<ConvexMesh> hull = convex_hull(*points);
  if (!hull) return Error{resolved.string() + after.str() + ": " + hull.error().message};
  auto mesh = std::make_shared<BodyMesh>();
  mesh->file = file;
  for (int k = 0; k < 3; ++k) mesh->scale[k] = scale[k];
  // Move the hull so that its centre of mass is the body's origin.
  const MeshMassProperties mass = mesh_mass_properties(hull->vertices, hull->triangles);
  for (int k = 0; k < 3; ++k) mesh->centre[k] = mass.centroid[k];
  for (auto& v : hull->vertices)
    for (int k = 0; k < 3; ++k) v[k] -= mass.centroid[k];
  for (ConvexPlane& plane : hull->planes)
    for (int k = 0; k < 3; ++k) plane.offset -= plane.normal[k] * mass.centroid[k];
  mesh->hull = std::move(*hull);
  // The mass integrals of the hull as the body holds it (every rollout reads them).
  const MeshMassProperties centred = mesh_mass_properties(mesh->hull.vertices, mesh->hull.triangles);
  mesh->unit.volume = centred.volume;
  for (int k = 0; k < 9; ++k) mesh->unit.inertia[k] = centred.inertia[k];
  // A body needs a volume and an inertia it can invert, in doubles and in floats.
  bool usable = mass.volume > 1e-30 && std::isfinite(mass.volume);
  for (int k = 0; k < 3; ++k) usable = usable && mass.inertia[4 * k] > 1e-30 && std::isfinite(mass.inertia[4 * k]);
  if (!usable)
    return Error{resolved.string() + after.str() + ": found a hull of volume " +
                 (std::ostringstream() << mass.volume).str() +
                 " m^3; expected a solid whose volume and inertia are finite and > 0 (is the scale right?)"};
  return std::shared_ptr<const BodyMesh>(std::move(mesh));
}

std::vector<ShapeSizeEntry> shape_size_entries(BodyShape shape) {
  switch (shape) {
    case BodyShape::Sphere: return {{ParamId::BodyRadius, 0}};
    case BodyShape::Capsule: return {{ParamId::BodyRadius, 0}, {ParamId::BodyHalfLength, 0}};
    case BodyShape::Box:
      return {{ParamId::BodyHalfExtents, 0}, {ParamId::BodyHalfExtents, 1}, {ParamId::BodyHalfExtents, 2}};
    case BodyShape::Mesh: break;
  }
  return {};
}

bool is_body_size(ParamId id) {
  return shape_uses_size(BodyShape::Sphere, id) || shape_uses_size(BodyShape::Capsule, id) ||
         shape_uses_size(BodyShape::Box, id);
}

bool shape_uses_size(BodyShape shape, ParamId id) {
  const std::vector<ShapeSizeEntry> used = shape_size_entries(shape);
  return std::any_of(used.begin(), used.end(), [id](const ShapeSizeEntry& e) { return e.param == id; });
}

std::vector<bool> used_size_entries(const std::vector<RigidBody>& bodies, ParamId id, int cols) {
  std::vector<bool> used(bodies.size() * size_t(cols), false);
  for (size_t b = 0; b < bodies.size(); ++b)
    for (const ShapeSizeEntry& e : shape_size_entries(bodies[b].shape))
      if (e.param == id) used[b * size_t(cols) + size_t(e.col)] = true;
  return used;
}

ShapeSize body_shape_size(const RigidBody& body, const ParameterSet& p, int b) {
  ShapeSize size{0, 0, 0};
  const std::vector<ShapeSizeEntry> entries = shape_size_entries(body.shape);
  for (size_t k = 0; k < entries.size(); ++k) {
    const Parameter& param = p[entries[k].param];
    size[k] = param.value.at(size_t(b) * size_t(param.cols) + size_t(entries[k].col));
  }
  return size;
}

double body_reach(const RigidBody& body, const ShapeSize& size) {
  switch (body.shape) {
    case BodyShape::Sphere: return size[0];
    case BodyShape::Capsule: return size[1] + size[0];
    case BodyShape::Box: return std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
    case BodyShape::Mesh: break;
  }
  double r2 = 0;
  for (const auto& v : body.mesh->hull.vertices) r2 = std::max(r2, v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return std::sqrt(r2);
}

void set_body_shape_size(ParameterSet& p, const RigidBody& body, int b, const ShapeSize& size) {
  const std::vector<ShapeSizeEntry> entries = shape_size_entries(body.shape);
  for (size_t k = 0; k < entries.size(); ++k) {
    Parameter& param = p[entries[k].param];
    param.value.at(size_t(b) * size_t(param.cols) + size_t(entries[k].col)) = size[k];
  }
}

namespace {

// A number and its derivatives with respect to the three entries of a shape's size:
// forward-mode differentiation of the mass formulas below, so that their derivatives
// cannot drift from them.
struct Dual {
  double v = 0;
  double d[3] = {0, 0, 0};
};
Dual operator+(Dual a, const Dual& b) {
  a.v += b.v;
  for (int k = 0; k < 3; ++k) a.d[k] += b.d[k];
  return a;
}
Dual operator*(const Dual& a, const Dual& b) {
  Dual r{a.v * b.v};
  for (int k = 0; k < 3; ++k) r.d[k] = a.d[k] * b.v + a.v * b.d[k];
  return r;
}
Dual operator*(double s, Dual a) {
  a.v *= s;
  for (double& d : a.d) d *= s;
  return a;
}

Dual operator*(Dual a, double s) { return s * a; }
Dual operator/(Dual a, double s) {
  a.v /= s;
  for (double& d : a.d) d /= s;
  return a;
}

struct DualMass {
  Dual volume;
  Dual moments[3];  // the diagonal of the inertia per unit density
};

DualMass primitive_mass(BodyShape shape, const ShapeSize& size) {
  constexpr double pi = std::numbers::pi;
  Dual s[3];
  for (int k = 0; k < 3; ++k) s[k].v = size[size_t(k)], s[k].d[k] = 1;
  DualMass p;
  switch (shape) {
    case BodyShape::Sphere: {
      const Dual r = s[0];
      p.volume = 4.0 / 3.0 * pi * r * r * r;
      p.moments[0] = p.moments[1] = p.moments[2] = 0.4 * p.volume * r * r;
      break;
    }
    case BodyShape::Box: {
      const Dual x = s[0], y = s[1], z = s[2];
      p.volume = 8.0 * x * y * z;
      p.moments[0] = p.volume / 3 * (y * y + z * z);
      p.moments[1] = p.volume / 3 * (x * x + z * z);
      p.moments[2] = p.volume / 3 * (x * x + y * y);
      break;
    }
    case BodyShape::Capsule: {
      // A cylinder of height H = 2h along y and two hemispheres (together a sphere),
      // each hemisphere's centre of mass 3r/8 from the cylinder's end.
      const Dual r = s[0], height = 2.0 * s[1];
      const Dual cylinder = pi * r * r * height, sphere = 4.0 / 3.0 * pi * r * r * r;
      p.volume = cylinder + sphere;
      p.moments[1] = cylinder * r * r / 2 + sphere * 0.4 * r * r;
      p.moments[0] = p.moments[2] = cylinder * (height * height / 12 + r * r / 4) +
                                    sphere * (0.4 * r * r + height * height / 4 + 3.0 * height * r / 8);
      break;
    }
    case BodyShape::Mesh: break;
  }
  return p;
}

}  // namespace

UnitMassProperties unit_mass_properties(const RigidBody& body, const ShapeSize& size) {
  if (body.shape == BodyShape::Mesh) return body.mesh->unit;
  UnitMassProperties p;
  const DualMass m = primitive_mass(body.shape, size);
  p.volume = m.volume.v;
  for (int k = 0; k < 3; ++k) p.inertia[4 * k] = m.moments[k].v;
  return p;
}

std::array<UnitMassProperties, 3> unit_mass_derivatives(const RigidBody& body, const ShapeSize& size) {
  std::array<UnitMassProperties, 3> d{};
  if (body.shape == BodyShape::Mesh) return d;
  const DualMass m = primitive_mass(body.shape, size);
  for (int s = 0; s < 3; ++s) {
    d[size_t(s)].volume = m.volume.d[s];
    for (int k = 0; k < 3; ++k) d[size_t(s)].inertia[4 * k] = m.moments[k].d[s];
  }
  return d;
}

}  // namespace nudge
