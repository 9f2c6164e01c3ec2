// Tetrahedral meshes for soft bodies: the mesh, its generators (a box, a ball), its
// boundary surface, lumped masses and validation. Independent of Scene: a scene's tet
// family takes a mesh's vertices as particles and its tets as 4 particle indices each.
// Reading TetGen and Gmsh files is in nudge/tet_mesh_file.h.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "nudge/result.h"

namespace nudge {

// V vertices, T tets. A tet (a, b, c, d) is positively oriented when
// det[x_b - x_a, x_c - x_a, x_d - x_a] > 0; the generators and readers give only such
// tets, and surface_triangles relies on it.
struct TetMesh {
  std::vector<std::array<double, 3>> vertices;  // V
  std::vector<int> tets;                        // 4 T: vertex indices, positively oriented

  int vertex_count() const { return static_cast<int>(vertices.size()); }
  int tet_count() const { return static_cast<int>(tets.size() / 4); }
};

// det[x1 - x0, x2 - x0, x3 - x0] / 6 of tet t: positive for a positively oriented tet.
// The indices must be in range (check_tet_mesh says whether they are).
double tet_signed_volume(const TetMesh& mesh, int tet);
// The sum of the tets' signed volumes.
double tet_mesh_volume(const TetMesh& mesh);

// A shape measure: 6 sqrt(2) V / l_rms^3, l_rms the root mean square of the six edge
// lengths. 1 for a regular tet, near 0 for a flat or needle-like one, negative when
// inverted (the volume-length measure). A box of cubic cells has 0.77 and 1; slivers,
// which make the tet kernel stiff and the time step small, are near 0.
double tet_quality(const TetMesh& mesh, int tet);

// A box [lo, hi] of nx x ny x nz equal cells, each split into 5 tets: a central one
// whose edges are the cell's face diagonals and four corner ones. The cells alternate
// between the two mirror-image splits (by the parity of i + j + k), so neighbouring
// cells split their shared face along the same diagonal and the mesh is conforming.
// (nx + 1)(ny + 1)(nz + 1) vertices, x fastest; 5 nx ny nz tets; volumes exact up to
// rounding. Errors for counts below 1, more than kMaxGeneratedTets tets, non-finite
// corners or hi <= lo on an axis.
Result<TetMesh> tet_box(std::array<double, 3> lo, std::array<double, 3> hi, int nx, int ny, int nz);

// A ball: a lattice of `resolution` cells per side on the cube [-1, 1]^3, each cell split
// into 6 tets around its diagonal that points away from the centre (Kuhn's split mirrored
// into each octant, conforming), mapped onto the ball of the given centre and radius.
// The map takes each cube shell |p|_inf = r to the sphere of radius r: p's direction on
// the cube is warped by tan(pi/4 t) per component (the equal-angle cube sphere, so
// surface cells are near equal in size), then normalised. Radial spacing stays uniform.
// The mirrored split matters: with a 5-tet split the cells on the cube's edges have
// tets whose four vertices all land on the sphere, slivers that get flatter as the
// resolution grows; here every tet holds a vertex nearer the centre.
// Every boundary vertex is on the sphere, so the mesh is an inscribed polyhedron: its
// volume is below 4/3 pi r^3 by O(1/resolution^2): 6.1 % at resolution 4, 1.6 % at 8,
// 0.39 % at 16. Every tet is positive; the worst tet_quality stays above 0.45 at every
// resolution (0.61 at 4, 0.53 at 24), the mean is 0.71 (tests/engine/tet_mesh_test.cpp
// checks resolutions 1 to 10 and 16).
// resolution^3 * 6 tets, (resolution + 1)^3 vertices. Errors for a resolution below 1,
// too many tets, a non-finite centre or a radius that is not positive and finite.
Result<TetMesh> tet_sphere(std::array<double, 3> center, double radius, int resolution);

// Generators refuse meshes with more tets than this (about a gigabyte of mesh).
inline constexpr long long kMaxGeneratedTets = 50'000'000;

// The boundary: the faces that belong to exactly one tet, each oriented so that its
// normal (x1 - x0) x (x2 - x0) points out of its tet (counter-clockwise seen from
// outside), in the order of their tets. Indices are the mesh's vertex indices. For a
// conforming mesh of positive tets the surface is closed and encloses the tets' volume.
// Faces shared by three or more tets (a non-conforming mesh) are not boundary faces.
std::vector<std::array<int, 3>> surface_triangles(const TetMesh& mesh);

// Lumped masses (V entries): each tet gives density x |volume| / 4 to each of its
// corners. A vertex in no tet gets 0. The second form takes one density per tet (T).
// The indices must be in range, as for tet_signed_volume.
std::vector<double> lumped_masses(const TetMesh& mesh, double density);
std::vector<double> lumped_masses(const TetMesh& mesh, const std::vector<double>& tet_density);

// The stable Neo-Hookean moduli (a scene's tet_mu and tet_lambda) whose small-strain
// behaviour is that of Young's modulus `young` (Pa) and Poisson's ratio `poisson`
// (-1 < nu < 1/2): what a scene file's "young" and "poisson" become (Smith et al.'s
// match, families/tets/tet_neohookean.h), for editors that offer the engineering pair.
struct NeoHookeanModuli {
  double k_mu, k_lambda;
};
NeoHookeanModuli neohookean_from_young_poisson(double young, double poisson);

// What check_tet_mesh finds. `index` is the tet's, or the vertex's for
// non_finite_vertex and unused_vertex.
struct TetMeshProblem {
  enum class Kind {
    non_finite_vertex,   // a coordinate is NaN or infinite
    index_out_of_range,  // a corner is not a vertex index
    repeated_vertex,     // a tet names one vertex twice
    degenerate,          // flat, by the tet kernel's own test (tet_rest)
    inverted,            // negative volume: fixable by orient_tets
    overshared_face,     // a face in three or more tets (named by the third): not conforming
    unused_vertex,       // a vertex in no tet (it would get no mass)
  };
  Kind kind;
  int index;
  std::string message;  // "tet 12: corners 3 and 7 are the same vertex (5)"
};

// Every problem of the mesh, tets in order, then faces, then unused vertices. A tet is
// degenerate when |det[e1, e2, e3]| <= flat_tolerance |e1| |e2| |e3| (e_i = x_i - x_0),
// the test tet_rest applies when a rollout is built, with the same default. A tet count
// not a multiple of 4 is an index_out_of_range problem of the last, partial tet.
std::vector<TetMeshProblem> check_tet_mesh(const TetMesh& mesh, double flat_tolerance = 1e-6);

// The first problem as an Error (with how many there are in all), or Ok. `label` starts
// the message ("ball.node").
Status validate_tet_mesh(const TetMesh& mesh, const std::string& label, double flat_tolerance = 1e-6);

// Makes every inverted tet positive by swapping its corners 2 and 3 (which keeps
// corner 0 and the tet's vertices). Tets that are degenerate or have bad indices are left
// alone. Returns how many were swapped.
int orient_tets(TetMesh& mesh, double flat_tolerance = 1e-6);

// Drops vertices that no tet uses and renumbers the tets. Returns, for each old vertex,
// its new index or -1. Indices must be in range.
std::vector<int> remove_unused_vertices(TetMesh& mesh);

}  // namespace nudge
