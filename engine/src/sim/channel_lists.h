// Items (actuators, joints, ...) grouped by the control channel they are on, in item
// order: the CSR lists that ChannelSumKernel (kernels/channel_sum.h) walks.
#pragma once

#include <vector>

namespace nudge {

struct ChannelLists {
  std::vector<int> start;  // channels + 1
  std::vector<int> items;
  bool empty() const { return items.empty(); }
};

// channel_of[i]: item i's channel, or -1 for none.
inline ChannelLists group_by_channel(int channels, const std::vector<int>& channel_of) {
  ChannelLists lists;
  lists.start.assign(size_t(channels) + 1, 0);
  for (int c : channel_of)
    if (c >= 0) ++lists.start[size_t(c) + 1];
  for (int c = 0; c < channels; ++c) lists.start[size_t(c) + 1] += lists.start[size_t(c)];
  lists.items.resize(size_t(lists.start[size_t(channels)]));
  std::vector<int> fill(lists.start.begin(), lists.start.end() - 1);
  for (int i = 0; i < static_cast<int>(channel_of.size()); ++i)
    if (channel_of[size_t(i)] >= 0) lists.items[size_t(fill[size_t(channel_of[size_t(i)])]++)] = i;
  return lists;
}

}  // namespace nudge
