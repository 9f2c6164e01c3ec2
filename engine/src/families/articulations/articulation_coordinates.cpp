// The joint coordinates of a scene's articulations (nudge/articulations.h): one per hinge
// or slide, in link order.
#include <algorithm>

#include "nudge/articulations.h"

namespace nudge {

std::string_view articulation_joint_name(ArticulationJoint joint) {
  switch (joint) {
    case ArticulationJoint::Weld: return "weld";
    case ArticulationJoint::Hinge: return "hinge";
    case ArticulationJoint::Slide: return "slide";
  }
  return "weld";
}

std::vector<int> articulation_coordinates(const Articulations& a) {
  std::vector<int> index;
  int next = 0;
  for (const ArticulationLink& l : a.links) index.push_back(l.joint == ArticulationJoint::Weld ? -1 : next++);
  return index;
}

int articulation_coordinate_count(const Articulations& a) {
  return static_cast<int>(std::count_if(a.links.begin(), a.links.end(),
                                        [](const ArticulationLink& l) { return l.joint != ArticulationJoint::Weld; }));
}

}  // namespace nudge
