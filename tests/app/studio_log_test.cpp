// The studio's log: the stderr format tests of the whole app read, the cap on kept
// entries, the error count and generation the GUI watches, and adds from many threads.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "studio/app_log.h"

using namespace nudge::studio;

TEST_CASE("log: lines echoed to stderr read as the command line's") {
  CHECK(format_log_line(LogLevel::Info, "loaded walker.json") == "nudge: loaded walker.json");
  CHECK(format_log_line(LogLevel::Warning, "no GPU") == "nudge: warning: no GPU");
  CHECK(format_log_line(LogLevel::Error, "bad.json: $.version") == "nudge: error: bad.json: $.version");

  std::ostringstream echo;
  AppLog log(AppLog::kDefaultCapacity, &echo);
  log.info("one");
  log.warning("two");
  log.error("three");
  CHECK(echo.str() == "nudge: one\nnudge: warning: two\nnudge: error: three\n");

  log.set_echo(nullptr);
  log.info("quiet");
  CHECK(echo.str() == "nudge: one\nnudge: warning: two\nnudge: error: three\n");
  CHECK(log.entries().size() == 4);
}

TEST_CASE("log: entries keep their level, message and order, with times since the start") {
  AppLog log;
  CHECK(log.entries().empty());
  log.info("a");
  log.error("b");
  log.warning("c");
  const std::vector<LogEntry> entries = log.entries();
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].level == LogLevel::Info);
  CHECK(entries[0].message == "a");
  CHECK(entries[1].level == LogLevel::Error);
  CHECK(entries[1].message == "b");
  CHECK(entries[2].level == LogLevel::Warning);
  CHECK(entries[2].message == "c");
  CHECK(entries[0].seconds >= 0.0);
  CHECK(entries[0].seconds < 60.0);
  CHECK(entries[1].seconds >= entries[0].seconds);
  CHECK(entries[2].seconds >= entries[1].seconds);
}

TEST_CASE("log: the oldest entries are dropped beyond the capacity; errors are still counted") {
  AppLog log(1000);
  CHECK(log.capacity() == 1000);
  for (int i = 0; i < 1005; ++i) {
    if (i % 5 == 0)
      log.error(std::to_string(i));
    else
      log.info(std::to_string(i));
  }
  const std::vector<LogEntry> entries = log.entries();
  REQUIRE(entries.size() == 1000);
  CHECK(entries.front().message == "5");
  CHECK(entries.back().message == "1004");
  CHECK(log.error_count() == 201);  // 0, 5, ..., 1000, the first one dropped

  log.clear();
  CHECK(log.entries().empty());
  CHECK(log.error_count() == 0);
}

TEST_CASE("log: the generation changes on every add and on clear") {
  AppLog log;
  std::uint64_t seen = log.generation();
  for (int i = 0; i < 3; ++i) {
    log.info("x");
    CHECK(log.generation() != seen);
    seen = log.generation();
  }
  // At the capacity the entry count stays the same, yet the panel must still scroll.
  AppLog small(2);
  small.info("1");
  small.info("2");
  const std::uint64_t full = small.generation();
  small.info("3");
  CHECK(small.entries().size() == 2);
  CHECK(small.generation() != full);
  const std::uint64_t before_clear = small.generation();
  small.clear();
  CHECK(small.generation() != before_clear);
}

TEST_CASE("log: adds from several threads are all kept, each thread's in its order") {
  constexpr int kThreads = 4, kEach = 500;
  std::ostringstream echo;
  AppLog log(kThreads * kEach, &echo);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&log, t] {
      for (int i = 0; i < kEach; ++i) {
        if (i % 10 == 0)
          log.error(std::to_string(t) + " " + std::to_string(i));
        else
          log.info(std::to_string(t) + " " + std::to_string(i));
      }
    });
  for (std::thread& thread : threads) thread.join();

  const std::vector<LogEntry> entries = log.entries();
  REQUIRE(entries.size() == size_t(kThreads * kEach));
  CHECK(log.error_count() == kThreads * kEach / 10);
  std::vector<int> next(kThreads, 0);
  for (const LogEntry& entry : entries) {
    std::istringstream in(entry.message);
    int t = -1, i = -1;
    in >> t >> i;
    REQUIRE(t >= 0);
    REQUIRE(t < kThreads);
    CHECK(i == next[t]);
    next[t] = i + 1;
  }
  // Whole lines only: echoes from different threads never interleave within a line.
  std::istringstream lines(echo.str());
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    const bool info = line.rfind("nudge: ", 0) == 0 && line.find("error") == std::string::npos;
    const bool error = line.rfind("nudge: error: ", 0) == 0;
    CHECK((info || error));
  }
  CHECK(count == kThreads * kEach);
}
