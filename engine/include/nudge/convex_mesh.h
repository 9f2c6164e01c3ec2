// Geometry for convex rigid bodies: the convex hull of a point set (the vertices of an
// OBJ file, say) and the mass properties of the solid a closed triangle mesh bounds.
#pragma once

#include <array>
#include <vector>

#include "nudge/result.h"

namespace nudge {

// A face plane of a convex mesh: a point x is inside (or on) it when dot(normal, x) <= offset.
struct ConvexPlane {
  double normal[3];  // unit, outward
  double offset;
};

struct ConvexMesh {
  std::vector<std::array<double, 3>> vertices;  // hull vertices only: no interior or duplicate points
  std::vector<std::array<int, 3>> triangles;    // the surface, counter-clockwise seen from outside
  std::vector<ConvexPlane> planes;              // one per distinct face plane (coplanar triangles merged)
};

// The convex hull of a point set. The hull is built with exact orientation signs, so
// it is convex and holds every point; then points within 1e-5 x the bounding box's
// diagonal of each other count as one, and vertices within that of a face's plane or
// an edge are dropped, so repeated points and points on faces or edges (or off them by
// rounding, as in OBJ files) are not vertices. The vertices are copies of input points;
// every input point is inside every plane within 3e-5 x the diagonal. Errors when there
// are fewer than 4 points, a non-finite coordinate, or when all points lie (within that
// tolerance) at one point, on one line, or in one plane.
Result<ConvexMesh> convex_hull(const std::vector<std::array<double, 3>>& points);

// Mass properties of a solid of unit density (multiply by the density for a real body).
struct MeshMassProperties {
  double volume = 0;
  double centroid[3] = {0, 0, 0};  // the centre of mass
  double inertia[9] = {};          // about the centroid, row-major, symmetric; products of inertia are -∫xy dV
};

// Exact integrals over the solid bounded by a closed triangle mesh whose triangles are
// counter-clockwise seen from outside (an inward-facing mesh gives a negative volume and
// a negated inertia). A mesh that encloses no volume gives volume 0, the vertices' mean
// as its centroid and a zero inertia.
MeshMassProperties mesh_mass_properties(const std::vector<std::array<double, 3>>& vertices,
                                        const std::vector<std::array<int, 3>>& triangles);

}  // namespace nudge
