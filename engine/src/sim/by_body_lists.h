// Items grouped by the body they belong to, as the kernels read them: body b's items are
// items[start[b] .. start[b + 1]), in the order they were added. The CSR form of the
// incidence lists of the families that act on bodies.
#pragma once

#include <utility>
#include <vector>

namespace nudge {

struct ByBodyLists {
  std::vector<int> start, items;  // items is never empty, so that it has a valid pointer
};

// (body, item) pairs in order; a body of -1 (the world) keeps no list.
inline ByBodyLists group_by_body(int bodies, const std::vector<std::pair<int, int>>& body_item) {
  std::vector<std::vector<int>> per_body(static_cast<size_t>(bodies));
  for (const auto& [body, item] : body_item)
    if (body >= 0) per_body[size_t(body)].push_back(item);
  ByBodyLists lists;
  lists.start.push_back(0);
  for (const std::vector<int>& items : per_body) {
    lists.items.insert(lists.items.end(), items.begin(), items.end());
    lists.start.push_back(static_cast<int>(lists.items.size()));
  }
  if (lists.items.empty()) lists.items.push_back(0);
  return lists;
}

}  // namespace nudge
