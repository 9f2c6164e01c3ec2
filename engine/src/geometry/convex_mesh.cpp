#include "nudge/convex_mesh.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nudge {

namespace {

using Point = std::array<double, 3>;

// Points within this fraction of the bounding box's diagonal of each other, or of a face
// plane, count as one point or as on the plane (initial_simplex's errors quote the
// value). OBJ files carry six or seven significant digits, so faces that were flat in the
// modeller are flat here only to about 1e-6 of the size; 1e-5 merges them, and it is
// still far below anything that matters to contact (3 micrometres on a 30 cm rock).
constexpr double kRelativeTolerance = 1e-5;

Point sub(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const Point& a) { return std::sqrt(dot(a, a)); }
Point scaled(const Point& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }

std::string point_text(const Point& p) {
  std::ostringstream out;
  out << "(" << p[0] << ", " << p[1] << ", " << p[2] << ")";
  return out.str();
}

// ---- Exact orientation -------------------------------------------------------------
//
// The hull's combinatorics are decided by exact signs, so it is convex and holds every
// point whatever the input: with a tolerance instead, a point barely above one face and
// barely below its neighbour makes an inward fold, and points end up outside. (This
// needs IEEE double arithmetic without -ffast-math or FMA contraction, as the engine is
// built.)

// A sum of doubles kept exactly as a nonoverlapping expansion, smallest component first
// (Shewchuk, "Adaptive Precision Floating-Point Arithmetic", 1997: Grow-Expansion).
class ExactSum {
public:
  void add(double b) {
    double q = b;
    int kept = 0;
    for (int i = 0; i < size_; ++i) {
      const double sum = q + component_[i];
      const double b_virtual = sum - q;
      const double error = (q - (sum - b_virtual)) + (component_[i] - b_virtual);
      q = sum;
      if (error != 0) component_[kept++] = error;
    }
    if (q != 0) component_[kept++] = q;
    size_ = kept;
  }
  // x y z, exactly: four doubles by two exact products.
  void add_product(double x, double y, double z, double sign) {
    const double xy = x * y, xy_error = std::fma(x, y, -xy);
    const double high = xy * z, low = xy_error * z;
    add(sign * high);
    add(sign * std::fma(xy, z, -high));
    add(sign * low);
    add(sign * std::fma(xy_error, z, -low));
  }
  // The largest component has the sign of the whole sum.
  int sign() const { return size_ == 0 ? 0 : (component_[size_ - 1] > 0 ? 1 : -1); }

private:
  double component_[100];  // 96 products' parts at most, each adding one component
  int size_ = 0;
};

// det[u; v; w] with every product exact.
void add_determinant(ExactSum& sum, const Point& u, const Point& v, const Point& w, double sign) {
  sum.add_product(u[0], v[1], w[2], sign);
  sum.add_product(u[0], v[2], w[1], -sign);
  sum.add_product(u[1], v[0], w[2], -sign);
  sum.add_product(u[1], v[2], w[0], sign);
  sum.add_product(u[2], v[0], w[1], sign);
  sum.add_product(u[2], v[1], w[0], -sign);
}

// The sign of dot(cross(b - a, c - a), p - a): 1 when p is above the plane of the
// counter-clockwise triangle (a, b, c), 0 on it, -1 below. Rounded arithmetic decides
// unless the result is within its error bound (Shewchuk's orient3d bound); then the
// determinant det[a 1; b 1; c 1; p 1] (negated) is summed exactly.
int orientation(const Point& a, const Point& b, const Point& c, const Point& p) {
  const Point u = sub(b, a), v = sub(c, a), w = sub(p, a);
  const double vw0 = v[1] * w[2] - v[2] * w[1], vw1 = v[2] * w[0] - v[0] * w[2], vw2 = v[0] * w[1] - v[1] * w[0];
  const double det = u[0] * vw0 + u[1] * vw1 + u[2] * vw2;
  const double permanent = std::abs(u[0]) * (std::abs(v[1] * w[2]) + std::abs(v[2] * w[1])) +
                           std::abs(u[1]) * (std::abs(v[2] * w[0]) + std::abs(v[0] * w[2])) +
                           std::abs(u[2]) * (std::abs(v[0] * w[1]) + std::abs(v[1] * w[0]));
  constexpr double kEpsilon = 0x1p-53;
  const double bound = (7 + 56 * kEpsilon) * kEpsilon * permanent;
  if (det > bound) return 1;
  if (det < -bound) return -1;

  // Cofactor expansion of the 4 x 4 determinant along its column of ones.
  ExactSum sum;
  add_determinant(sum, b, c, p, 1);
  add_determinant(sum, a, c, p, -1);
  add_determinant(sum, a, b, p, 1);
  add_determinant(sum, a, b, c, -1);
  return sum.sign();
}

// ---- Quickhull ---------------------------------------------------------------------

struct Face {
  int v[3];                  // point indices, counter-clockwise seen from outside
  int adj[3];                // adj[i]: the face across the edge v[i] -> v[(i + 1) % 3]
  Point normal;              // unit and outward, or zero for a face too thin to have one in doubles
  double offset;             // dot(normal, x) for x on the face
  std::vector<int> outside;  // points strictly above this face, not yet hull vertices
  bool alive = true;
  int stamp = 0;         // the last visibility search that looked at this face
  bool visible = false;  // its result in that search
};

// An edge of the region a new point sees, with the face beyond it that stays.
struct HorizonEdge {
  int from, to;
  int beyond;
};

// Quickhull (Barber, Dobkin and Huhdanpaa 1996) on a triangulated hull: start from a
// large tetrahedron, then repeatedly add the point farthest outside some face, replacing
// the faces it sees with a cone from it to their boundary (the horizon). Every point not
// yet inside sits in the outside set of one face it is above. Above and inside are exact
// signs; distances (rounded) only choose which point goes next.
class HullBuilder {
public:
  explicit HullBuilder(const std::vector<Point>& points)
      : p_(points), start_stamp_(p_.size(), 0), start_edge_(p_.size()), end_edge_(p_.size()) {}

  // The hull of the points whose indices are `candidates`, starting from `simplex`, four of them.
  void build(const std::vector<int>& candidates, const std::array<int, 4>& simplex) {
    add_simplex(candidates, simplex);
    std::vector<int> pending = {0, 1, 2, 3};
    while (!pending.empty()) {
      const int f = pending.back();
      pending.pop_back();
      if (!faces_[f].alive || faces_[f].outside.empty()) continue;
      const std::vector<int>& outside = faces_[f].outside;
      const int eye = *std::max_element(outside.begin(), outside.end(),
                                        [&](int a, int b) { return distance(faces_[f], a) < distance(faces_[f], b); });
      if (!add_point(eye, f, pending)) {
        // Exact signs always give a disc of visible faces; this only guards against
        // overflow or underflow in the products. Leave the point out.
        std::vector<int>& still_outside = faces_[f].outside;
        still_outside.erase(std::find(still_outside.begin(), still_outside.end(), eye));
        pending.push_back(f);
      }
    }
  }

  const std::vector<Face>& faces() const { return faces_; }

private:
  double distance(const Face& f, int point) const { return dot(f.normal, p_[point]) - f.offset; }
  bool above(const Face& f, int point) const { return orientation(p_[f.v[0]], p_[f.v[1]], p_[f.v[2]], p_[point]) > 0; }

  int make_face(int a, int b, int c) {
    Face f;
    f.v[0] = a, f.v[1] = b, f.v[2] = c;
    f.adj[0] = f.adj[1] = f.adj[2] = -1;
    const Point n = cross(sub(p_[b], p_[a]), sub(p_[c], p_[a]));
    const double length = norm(n);
    f.normal = length > 0 ? scaled(n, 1 / length) : Point{0, 0, 0};
    f.offset = (dot(f.normal, p_[a]) + dot(f.normal, p_[b]) + dot(f.normal, p_[c])) / 3;
    faces_.push_back(std::move(f));
    return static_cast<int>(faces_.size()) - 1;
  }

  // The index of the edge from -> to in face f, or -1.
  int edge_index(int f, int from, int to) const {
    for (int i = 0; i < 3; ++i)
      if (faces_[f].v[i] == from && faces_[f].v[(i + 1) % 3] == to) return i;
    return -1;
  }

  void add_simplex(const std::vector<int>& candidates, const std::array<int, 4>& s) {
    int a = s[0], b = s[1], c = s[2];
    const int d = s[3];
    if (orientation(p_[a], p_[b], p_[c], p_[d]) > 0) std::swap(b, c);  // make (a, b, c) face away from d
    make_face(a, b, c);
    make_face(b, a, d);
    make_face(c, b, d);
    make_face(a, c, d);
    for (int f = 0; f < 4; ++f)
      for (int i = 0; i < 3; ++i)
        for (int g = 0; g < 4; ++g)
          if (g != f && edge_index(g, faces_[f].v[(i + 1) % 3], faces_[f].v[i]) >= 0) faces_[f].adj[i] = g;

    for (int q : candidates) {
      if (q == s[0] || q == s[1] || q == s[2] || q == s[3]) continue;
      for (Face& f : faces_)
        if (above(f, q)) {
          f.outside.push_back(q);
          break;
        }
    }
  }

  // The faces eye is above, found from `seen` across edges, and the horizon around
  // them. False when the horizon is not one simple loop.
  bool find_horizon(int eye, int seen, std::vector<int>& visible, std::vector<HorizonEdge>& horizon) {
    ++stamp_;
    visible.assign(1, seen);
    horizon.clear();
    faces_[seen].stamp = stamp_;
    faces_[seen].visible = true;
    for (std::size_t k = 0; k < visible.size(); ++k) {
      const Face& f = faces_[visible[k]];
      for (int i = 0; i < 3; ++i) {
        Face& g = faces_[f.adj[i]];
        if (g.stamp != stamp_) {
          g.stamp = stamp_;
          g.visible = above(g, eye);
          if (g.visible) visible.push_back(f.adj[i]);
        }
        if (!g.visible) horizon.push_back({f.v[i], f.v[(i + 1) % 3], f.adj[i]});
      }
    }

    for (std::size_t e = 0; e < horizon.size(); ++e) {
      if (start_stamp_[horizon[e].from] == stamp_) return false;
      start_stamp_[horizon[e].from] = stamp_;
      start_edge_[horizon[e].from] = static_cast<int>(e);
      end_edge_[horizon[e].to] = static_cast<int>(e);
    }
    std::size_t loop_length = 0;
    std::size_t e = 0;
    do {
      const int next = horizon[e].to;
      if (start_stamp_[next] != stamp_) return false;
      e = static_cast<std::size_t>(start_edge_[next]);
      ++loop_length;
    } while (e != 0 && loop_length <= horizon.size());
    return loop_length == horizon.size() && horizon.size() >= 3;
  }

  bool add_point(int eye, int seen, std::vector<int>& pending) {
    std::vector<int> visible;
    std::vector<HorizonEdge> horizon;
    if (!find_horizon(eye, seen, visible, horizon)) return false;

    // The cone: one face per horizon edge, linked to the face beyond it and to the cone
    // faces on the horizon edges before and after it.
    const int first = static_cast<int>(faces_.size());
    for (const HorizonEdge& e : horizon) make_face(e.from, e.to, eye);
    for (std::size_t k = 0; k < horizon.size(); ++k) {
      const HorizonEdge& e = horizon[k];
      Face& cone = faces_[first + static_cast<int>(k)];
      cone.adj[0] = e.beyond;
      cone.adj[1] = first + start_edge_[e.to];
      cone.adj[2] = first + end_edge_[e.from];
      faces_[e.beyond].adj[edge_index(e.beyond, e.to, e.from)] = first + static_cast<int>(k);
    }

    // The points the removed faces held go to a cone face they are above, or are inside.
    for (int f : visible) {
      faces_[f].alive = false;
      for (int q : faces_[f].outside) {
        if (q == eye) continue;
        for (int c = first; c < static_cast<int>(faces_.size()); ++c)
          if (above(faces_[c], q)) {
            faces_[c].outside.push_back(q);
            break;
          }
      }
      std::vector<int>().swap(faces_[f].outside);
    }
    for (int c = first; c < static_cast<int>(faces_.size()); ++c)
      if (!faces_[c].outside.empty()) pending.push_back(c);
    return true;
  }

  const std::vector<Point>& p_;
  std::vector<Face> faces_;
  int stamp_ = 0;
  std::vector<int> start_stamp_;  // per point: the search whose horizon starts an edge there
  std::vector<int> start_edge_;   // per point: that horizon edge
  std::vector<int> end_edge_;     // per point: the horizon edge that ends there
};

// ---- Tolerances: welding, the first tetrahedron, planes, corners -------------------

// The indices of the points left when each point within `tolerance` of an earlier kept
// one is dropped (a hash grid of cells `tolerance` wide; neighbours are in the 27 cells
// around).
std::vector<int> weld(const std::vector<Point>& p, const Point& low, double tolerance) {
  struct CellHash {
    std::size_t operator()(const std::array<std::int64_t, 3>& c) const {
      return static_cast<std::size_t>(c[0] * 73856093 ^ c[1] * 19349663 ^ c[2] * 83492791);
    }
  };
  std::unordered_map<std::array<std::int64_t, 3>, std::vector<int>, CellHash> grid;
  std::vector<int> kept;
  for (int i = 0; i < static_cast<int>(p.size()); ++i) {
    std::array<std::int64_t, 3> cell{};
    for (int axis = 0; axis < 3; ++axis)
      cell[axis] = static_cast<std::int64_t>(std::floor((p[i][axis] - low[axis]) / tolerance));
    bool duplicate = false;
    for (int dx = -1; dx <= 1 && !duplicate; ++dx)
      for (int dy = -1; dy <= 1 && !duplicate; ++dy)
        for (int dz = -1; dz <= 1 && !duplicate; ++dz) {
          const auto found = grid.find({cell[0] + dx, cell[1] + dy, cell[2] + dz});
          if (found == grid.end()) continue;
          for (int j : found->second)
            if (norm(sub(p[i], p[j])) <= tolerance) duplicate = true;
        }
    if (duplicate) continue;
    grid[cell].push_back(i);
    kept.push_back(i);
  }
  return kept;
}

// Four of the candidate points spanning a large tetrahedron, or why there are none.
Result<std::array<int, 4>> initial_simplex(const std::vector<Point>& p, const std::vector<int>& candidates,
                                           std::size_t point_count, double tolerance) {
  const std::string count = std::to_string(point_count) + " points";
  const std::string within =
      " (within 1e-5 x their bounding box's diagonal); a convex body needs points that span a volume";

  // The farthest pair among the extreme points along each axis.
  int extreme[6];
  std::fill(extreme, extreme + 6, candidates[0]);
  for (int i : candidates)
    for (int axis = 0; axis < 3; ++axis) {
      if (p[i][axis] < p[extreme[2 * axis]][axis]) extreme[2 * axis] = i;
      if (p[i][axis] > p[extreme[2 * axis + 1]][axis]) extreme[2 * axis + 1] = i;
    }
  int a = extreme[0], b = extreme[1];
  double widest = -1;
  for (int i = 0; i < 6; ++i)
    for (int j = i + 1; j < 6; ++j)
      if (const double d = norm(sub(p[extreme[i]], p[extreme[j]])); d > widest) {
        widest = d;
        a = extreme[i], b = extreme[j];
      }
  if (widest <= tolerance)
    return Error{"all " + count + " are the same point; a convex body needs points that span a volume"};

  // The point farthest from the line through them.
  const Point along = scaled(sub(p[b], p[a]), 1 / widest);
  int c = a;
  double farthest = -1;
  for (int i : candidates)
    if (const double d = norm(cross(sub(p[i], p[a]), along)); d > farthest) farthest = d, c = i;
  if (farthest <= tolerance) return Error{"all " + count + " lie on one line" + within};

  // The point farthest from the plane through the three.
  const Point n = cross(sub(p[b], p[a]), sub(p[c], p[a]));
  const Point normal = scaled(n, 1 / norm(n));
  int d = a;
  farthest = -1;
  for (int i : candidates)
    if (const double h = std::abs(dot(sub(p[i], p[a]), normal)); h > farthest) farthest = h, d = i;
  if (farthest <= tolerance) return Error{"all " + count + " lie in one plane" + within};
  return std::array<int, 4>{a, b, c, d};
}

// The face planes of a hull. Coplanar triangles of a convex hull form one connected
// polygon, so each plane grows across edges from a seed triangle, taking the neighbours
// whose corners are all within the tolerance of the seed's plane. Seeds go largest
// first, and a plane keeps its seed's normal: a large triangle's normal is accurate (a
// sliver's need not be), and every point of the exact hull is below it. Its offset is
// the largest over its triangles' corners, so none of them is outside it.
struct FacePlanes {
  std::vector<int> plane_of_face;  // per face (-1 for removed faces)
  std::vector<ConvexPlane> planes;
};

FacePlanes group_face_planes(const std::vector<Face>& faces, const std::vector<Point>& p, double tolerance) {
  std::vector<double> area(faces.size(), 0);
  std::vector<int> by_area;
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (!faces[f].alive) continue;
    const Face& face = faces[f];
    area[f] = norm(cross(sub(p[face.v[1]], p[face.v[0]]), sub(p[face.v[2]], p[face.v[0]])));
    by_area.push_back(static_cast<int>(f));
  }
  std::stable_sort(by_area.begin(), by_area.end(), [&](int a, int b) { return area[a] > area[b]; });

  FacePlanes out;
  out.plane_of_face.assign(faces.size(), -1);
  for (int seed : by_area) {
    if (out.plane_of_face[seed] >= 0 || area[seed] == 0) continue;
    const Face& s = faces[seed];
    const int plane = static_cast<int>(out.planes.size());
    std::vector<int> group = {seed};
    out.plane_of_face[seed] = plane;
    double offset = s.offset;
    for (std::size_t k = 0; k < group.size(); ++k) {
      for (int v : faces[group[k]].v) offset = std::max(offset, dot(s.normal, p[v]));
      for (int g : faces[group[k]].adj) {
        if (out.plane_of_face[g] >= 0) continue;
        bool coplanar = true;
        for (int v : faces[g].v) coplanar = coplanar && std::abs(dot(s.normal, p[v]) - s.offset) <= tolerance;
        if (coplanar) {
          out.plane_of_face[g] = plane;
          group.push_back(g);
        }
      }
    }
    out.planes.push_back({{s.normal[0], s.normal[1], s.normal[2]}, offset});
  }
  // A triangle too thin to have a normal in doubles joins a neighbour's plane.
  for (bool changed = true; changed;) {
    changed = false;
    for (int f : by_area)
      for (int g : faces[f].adj)
        if (out.plane_of_face[f] < 0 && out.plane_of_face[g] >= 0) {
          out.plane_of_face[f] = out.plane_of_face[g];
          changed = true;
        }
  }
  return out;
}

// The hull's vertices where at least three face planes meet. The others lie inside a
// face or on an edge (within the tolerance): quickhull keeps a point once it is a
// vertex, even when later points flatten the hull around it, and points above a face by
// less than the tolerance are vertices of the exact hull.
std::vector<int> corner_vertices(const std::vector<Face>& faces, const FacePlanes& planes, std::size_t point_count,
                                 int& hull_vertex_count) {
  std::vector<std::array<int, 3>> planes_at(point_count, {-1, -1, -1});  // up to three distinct planes per point
  std::vector<char> on_hull(point_count, 0);
  for (std::size_t f = 0; f < faces.size(); ++f) {
    if (!faces[f].alive) continue;
    for (int v : faces[f].v) {
      on_hull[v] = 1;
      const int plane = planes.plane_of_face[f];
      for (int& slot : planes_at[v]) {
        if (slot == plane) break;
        if (slot < 0) {
          slot = plane;
          break;
        }
      }
    }
  }
  std::vector<int> corners;
  hull_vertex_count = 0;
  for (std::size_t v = 0; v < point_count; ++v) {
    hull_vertex_count += on_hull[v];
    if (on_hull[v] && planes_at[v][2] >= 0) corners.push_back(static_cast<int>(v));
  }
  return corners;
}

// Whether the points with indices `which` are inside every plane, within `slack`.
bool holds_all(const std::vector<ConvexPlane>& planes, const std::vector<Point>& p, const std::vector<int>& which,
               double slack) {
  for (const ConvexPlane& plane : planes) {
    const Point n = {plane.normal[0], plane.normal[1], plane.normal[2]};
    for (int q : which)
      if (dot(n, p[q]) - plane.offset > slack) return false;
  }
  return true;
}

struct Hull {
  std::vector<Face> faces;
  FacePlanes planes;
};

Hull build_hull(const std::vector<Point>& p, const std::vector<int>& candidates, const std::array<int, 4>& simplex,
                double tolerance) {
  HullBuilder builder(p);
  builder.build(candidates, simplex);
  Hull hull{builder.faces(), {}};
  hull.planes = group_face_planes(hull.faces, p, tolerance);
  return hull;
}

}  // namespace

Result<ConvexMesh> convex_hull(const std::vector<Point>& points) {
  if (points.size() < 4)
    return Error{"a convex hull needs at least 4 points that span a volume; found " + std::to_string(points.size())};
  if (points.size() > static_cast<std::size_t>(1) << 30)
    return Error{"a convex hull of " + std::to_string(points.size()) + " points; expected at most 2^30"};
  for (std::size_t i = 0; i < points.size(); ++i)
    for (double x : points[i])
      if (!std::isfinite(x))
        return Error{"point " + std::to_string(i) + " (counting from 0) is " + point_text(points[i]) +
                     "; expected finite coordinates"};

  // Work about the bounding box's centre so that rounding scales with the set's size,
  // not with how far it is from the origin.
  Point low = points[0], high = points[0];
  for (const Point& q : points)
    for (int axis = 0; axis < 3; ++axis) {
      low[axis] = std::min(low[axis], q[axis]);
      high[axis] = std::max(high[axis], q[axis]);
    }
  const Point centre = scaled({low[0] + high[0], low[1] + high[1], low[2] + high[2]}, 0.5);
  std::vector<Point> centred(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) centred[i] = sub(points[i], centre);
  const double tolerance = kRelativeTolerance * norm(sub(high, low));
  if (tolerance == 0)
    return Error{"all " + std::to_string(points.size()) +
                 " points are the same point; a convex body needs points that span a volume"};

  std::vector<int> candidates = weld(centred, sub(low, centre), tolerance);
  Result<std::array<int, 4>> simplex = initial_simplex(centred, candidates, points.size(), tolerance);
  if (!simplex) return simplex.error();
  Hull hull = build_hull(centred, candidates, *simplex, tolerance);

  // Vertices inside a face or on an edge go, and the hull is built again from the
  // corners, until none is left (twice at most in practice). The vertices that went must
  // be within a few tolerances of the new hull, or the hull before it stays; that is
  // enough for every point, since a plane's excess over the old hull is largest at one
  // of its vertices.
  for (int pass = 0; pass < 3; ++pass) {
    int hull_vertex_count = 0;
    std::vector<int> corners = corner_vertices(hull.faces, hull.planes, points.size(), hull_vertex_count);
    if (static_cast<int>(corners.size()) == hull_vertex_count || corners.size() < 4) break;
    Result<std::array<int, 4>> corner_simplex = initial_simplex(centred, corners, points.size(), tolerance);
    if (!corner_simplex) break;
    Hull simpler = build_hull(centred, corners, *corner_simplex, tolerance);
    std::vector<char> listed(points.size(), 0);  // corners, and the removed vertices once listed
    for (int v : corners) listed[v] = 1;
    std::vector<int> removed;
    for (const Face& f : hull.faces)
      if (f.alive)
        for (int v : f.v)
          if (!listed[v]) {
            listed[v] = 1;
            removed.push_back(v);
          }
    if (!holds_all(simpler.planes.planes, centred, removed, 3 * tolerance)) break;
    hull = std::move(simpler);
  }

  // Hull vertices renumbered in the order the triangles first use them.
  ConvexMesh mesh;
  std::vector<int> vertex_of(points.size(), -1);
  for (const Face& f : hull.faces) {
    if (!f.alive) continue;
    std::array<int, 3> triangle{};
    for (int i = 0; i < 3; ++i) {
      if (vertex_of[f.v[i]] < 0) {
        vertex_of[f.v[i]] = static_cast<int>(mesh.vertices.size());
        mesh.vertices.push_back(points[f.v[i]]);
      }
      triangle[i] = vertex_of[f.v[i]];
    }
    mesh.triangles.push_back(triangle);
  }
  mesh.planes = std::move(hull.planes.planes);
  for (ConvexPlane& plane : mesh.planes)
    plane.offset += plane.normal[0] * centre[0] + plane.normal[1] * centre[1] + plane.normal[2] * centre[2];
  return mesh;
}

MeshMassProperties mesh_mass_properties(const std::vector<Point>& vertices,
                                        const std::vector<std::array<int, 3>>& triangles) {
  MeshMassProperties m;
  if (vertices.empty()) return m;

  // Integrate about the vertices' mean: the same integrals, less cancellation for a mesh
  // far from the origin.
  Point reference = {0, 0, 0};
  for (const Point& v : vertices)
    for (int axis = 0; axis < 3; ++axis) reference[axis] += v[axis] / static_cast<double>(vertices.size());

  // Eberly, "Polyhedral Mass Properties (Revisited)" (2002): by the divergence theorem
  // each triangle contributes its tetrahedron to the reference point to the integrals of
  // 1, x, y, z, x², y², z², xy, yz, zx over the solid, exactly.
  double integral[10] = {};
  for (const std::array<int, 3>& t : triangles) {
    const Point p0 = sub(vertices[t[0]], reference);
    const Point p1 = sub(vertices[t[1]], reference);
    const Point p2 = sub(vertices[t[2]], reference);
    const Point d = cross(sub(p1, p0), sub(p2, p0));
    double f1[3], f2[3], f3[3], g0[3], g1[3], g2[3];
    for (int axis = 0; axis < 3; ++axis) {
      const double w0 = p0[axis], w1 = p1[axis], w2 = p2[axis];
      const double sum01 = w0 + w1;
      const double w0w0 = w0 * w0;
      const double partial = w0w0 + w1 * sum01;
      f1[axis] = sum01 + w2;
      f2[axis] = partial + w2 * f1[axis];
      f3[axis] = w0 * w0w0 + w1 * partial + w2 * f2[axis];
      g0[axis] = f2[axis] + w0 * (f1[axis] + w0);
      g1[axis] = f2[axis] + w1 * (f1[axis] + w1);
      g2[axis] = f2[axis] + w2 * (f1[axis] + w2);
    }
    integral[0] += d[0] * f1[0];
    integral[1] += d[0] * f2[0];
    integral[2] += d[1] * f2[1];
    integral[3] += d[2] * f2[2];
    integral[4] += d[0] * f3[0];
    integral[5] += d[1] * f3[1];
    integral[6] += d[2] * f3[2];
    integral[7] += d[0] * (p0[1] * g0[0] + p1[1] * g1[0] + p2[1] * g2[0]);
    integral[8] += d[1] * (p0[2] * g0[1] + p1[2] * g1[1] + p2[2] * g2[1]);
    integral[9] += d[2] * (p0[0] * g0[2] + p1[0] * g1[2] + p2[0] * g2[2]);
  }
  integral[0] /= 6;
  for (int k = 1; k <= 3; ++k) integral[k] /= 24;
  for (int k = 4; k <= 6; ++k) integral[k] /= 60;
  for (int k = 7; k <= 9; ++k) integral[k] /= 120;

  const double volume = integral[0];
  m.volume = volume;
  if (volume == 0) {
    for (int axis = 0; axis < 3; ++axis) m.centroid[axis] = reference[axis];
    return m;
  }
  const double cx = integral[1] / volume, cy = integral[2] / volume, cz = integral[3] / volume;
  m.centroid[0] = reference[0] + cx;
  m.centroid[1] = reference[1] + cy;
  m.centroid[2] = reference[2] + cz;

  // Second moments about the reference, moved to the centroid (parallel axis theorem).
  const double xx = integral[4] - volume * cx * cx;
  const double yy = integral[5] - volume * cy * cy;
  const double zz = integral[6] - volume * cz * cz;
  const double xy = integral[7] - volume * cx * cy;
  const double yz = integral[8] - volume * cy * cz;
  const double zx = integral[9] - volume * cz * cx;
  const double inertia[9] = {yy + zz, -xy,     -zx,  //
                             -xy,     xx + zz, -yz,  //
                             -zx,     -yz,     xx + yy};
  std::copy(inertia, inertia + 9, m.inertia);
  return m;
}

}  // namespace nudge
