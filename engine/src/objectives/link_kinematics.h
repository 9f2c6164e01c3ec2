// Forward kinematics of one link's tree at a state's q, on the host in double, with the
// placements of the evaluation's parameters: what the objectives on a link's pose (reach,
// link_orientation) read, and the way their gradients reach q. A loss that depends on the
// link's pose through a wrench W (dL per twist of the link, world coordinates about the
// origin: a point force g at p is (p x g, g), a turn alone (tau, 0)) gives each joint above
// the link its share along that joint's motions (articulation_dynamics.h).
#pragma once

#include <algorithm>
#include <vector>

#include "families/articulations/articulation_dynamics.h"
#include "families/articulations/articulation_links.h"
#include "kernels/state.h"

namespace nudge {

class LinkKinematics {
public:
  LinkKinematics(const Articulations& articulations, int link)
      : articulations_(articulations), link_(link), positions_(articulation_position_count(articulations)) {
    for (const TreeModel& tree : tree_models(articulations_))
      if (link_ >= tree.first_link && link_ < tree.first_link + tree.links) tree_ = tree;
  }

  // The links' models at the evaluation's parameters (ObjectiveTerm::prepare).
  void prepare(const ParameterSet& params) {
    links_ = link_models<double>(articulations_, params);
    frames_.resize(links_.size());
  }

  // The link's frame at the state's q; the tree's frames are kept for add_wrench.
  template <class T>
  const LinkFrame<double>& frame_at(StateView<const T> s) const {
    q_.resize(static_cast<size_t>(positions_));
    for (int i = 0; i < positions_; ++i) q_[size_t(i)] = static_cast<double>(s.joint_q[i]);
    link_frames(tree_, links_.data(), q_.data(), frames_.data());
    return frames_[size_t(link_)];
  }

  // Adds a wrench on the link (at the q of the last frame_at) to dL/dq of each joint above it.
  template <class T>
  void add_wrench(Spatial<double> wrench, T* adj_q) const {
    for (int k = link_; k >= 0; k = links_[size_t(k)].parent) add_joint_wrench(k, wrench, adj_q);
  }

  // The same for the joint of link k alone.
  template <class T>
  void add_joint_wrench(int k, Spatial<double> wrench, T* adj_q) const {
    const LinkModel<double>& l = links_[size_t(k)];
    if (l.position < 0) return;
    adj_.assign(q_.size(), 0.0);
    add_joint_position_adjoint(l, frames_[size_t(k)], q_.data(), wrench, adj_.data());
    for (int c = 0; c < link_joint_positions(l.joint); ++c)
      adj_q[l.position + c] += static_cast<T>(adj_[size_t(l.position + c)]);
  }

  int link() const { return link_; }
  const Articulations& articulations() const { return articulations_; }
  const std::vector<LinkModel<double>>& links() const { return links_; }
  const std::vector<LinkFrame<double>>& frames() const { return frames_; }

private:
  Articulations articulations_;
  int link_, positions_;
  TreeModel tree_{0, 0, 0, 0, 0, 0, 0};
  std::vector<LinkModel<double>> links_;
  mutable std::vector<LinkFrame<double>> frames_;  // of the last state read, at its q
  mutable std::vector<double> q_, adj_;
};

}  // namespace nudge
