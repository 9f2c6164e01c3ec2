// What the tet mesh readers share (nudge/tet_mesh_file.h is the public side).
#pragma once

#include <string>
#include <vector>

#include "nudge/result.h"
#include "nudge/tet_mesh.h"

namespace nudge {

// Checks a mesh just read and orients its tets positively. `tet_lines` (T) holds the line
// each tet was read from, `vertex_ids` (V) the number the file gives each vertex, so that
// errors point into the file: "ball.ele:14: the tet names point 3 twice".
Status finish_read_tet_mesh(TetMesh& mesh, const std::string& tets_label, const std::vector<int>& tet_lines,
                            const std::vector<long long>& vertex_ids);

}  // namespace nudge
