// The `nudge` binary run as a user runs it: exit codes, messages and output files.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

namespace fs = std::filesystem;

namespace {

// As nudge::test::kSanitized (tests/engine/sanitized.h), whose namespace this file's
// nudge() would hide.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

fs::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return fs::path(__FILE__).parent_path().parent_path().parent_path();
}

struct Run {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs `nudge ARGS` from `folder`.
Run nudge_in(const fs::path& folder, const std::string& args) {
  const char* binary = std::getenv("NUDGE_BINARY");
  REQUIRE_MESSAGE(binary != nullptr, "NUDGE_BINARY is not set (run through ctest)");
  const std::string command = "cd '" + folder.string() + "' && '" + binary + "' " + args + " 2>&1";
  Run run;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, got);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// Runs `nudge ARGS` from the source directory.
Run nudge(const std::string& args) { return nudge_in(source_dir(), args); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("nudge_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(std::rand()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("cli: validate accepts every example scene") {
  for (const auto& entry : fs::directory_iterator(source_dir() / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    const Run run = nudge("validate scenes/" + entry.path().filename().string());
    INFO(run.output);
    CHECK(run.exit_code == 0);
    CHECK(contains(run.output, ": ok: "));
    if (entry.path().filename() == "cloth_throw.json")
      CHECK(contains(run.output, " 289 particles, 0 springs, 512 triangles, 736 bending edges, 0 tets, "));
    if (entry.path().filename() == "softbody_bounce.json")
      CHECK(contains(run.output, " 27 particles, 0 springs, 48 triangles, 0 bending edges, 40 tets, "));
    if (entry.path().filename() == "softbody_properties.json")
      CHECK(contains(run.output, " 64 particles, 0 springs, 0 triangles, 0 bending edges, 162 tets, "));
    if (entry.path().filename() == "stiff_cloth_implicit.json") CHECK(contains(run.output, " s (implicit Euler), "));
    if (entry.path().filename() == "walker.json") CHECK(contains(run.output, " s (semi-implicit Euler), "));
    if (entry.path().filename() == "drape.json")
      CHECK(contains(run.output, " 81 particles, 0 springs, 128 triangles, 176 bending edges, 0 tets, "));
    if (entry.path().filename() == "soft_walker.json")
      CHECK(contains(run.output, " 117 particles, 0 springs, 0 triangles, 0 bending edges, 240 tets, "));
    if (entry.path().filename() == "diffmpm.json") CHECK(contains(run.output, " 0 tets, 2976 material points, "));
  }
}

TEST_CASE("cli: bad input exits 2 with a message naming the file") {
  TempDir dir;
  const fs::path bad = dir.path / "bad.json";
  std::ofstream(bad) << R"({"format": "nudge-scene", "version": 1, "simulation": {"dt": 0.01, "steps": 0},
                          "particles": {"position": [[0, 0, 0]]}})";
  for (const std::string& command : {"validate " + bad.string(), "simulate " + bad.string(), "optimize " + bad.string(),
                                     "gradcheck " + bad.string()}) {
    const Run run = nudge(command);
    INFO(command << "\n" << run.output);
    CHECK(run.exit_code == 2);
    CHECK(contains(run.output, "bad.json"));
    CHECK(contains(run.output, "steps"));
  }
  const Run missing = nudge("validate " + (dir.path / "nope.json").string());
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.output, "nope.json"));
  const Run directory = nudge("validate " + dir.path.string());
  CHECK(directory.exit_code == 2);
  const Run usage = nudge("optimize scenes/projectile.json --optimizer newton");
  CHECK(usage.exit_code == 2);
  const Run no_command = nudge("");
  CHECK(no_command.exit_code == 2);
}

TEST_CASE("cli: simulate writes the whole trajectory") {
  TempDir dir;
  const fs::path out = dir.path / "traj.csv";
  const Run run = nudge("simulate scenes/projectile.json --out " + out.string());
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK(contains(run.output, "loss "));
  std::ifstream in(out);
  std::string header;
  std::getline(in, header);
  CHECK(header == "step,time,particle,x,y,z,vx,vy,vz");
  int rows = 0;
  for (std::string line; std::getline(in, line);) ++rows;
  CHECK(rows == 501);  // 500 steps plus the initial state, one particle
}

TEST_CASE("cli: import makes a scene of an MJCF robot beside it, which simulate runs and --joints-out writes") {
  TempDir dir;
  const fs::path robot = dir.path / "double_pendulum.xml";
  fs::copy_file(source_dir() / "tests/data/articulations/double_pendulum.xml", robot);
  const Run run = nudge("import " + robot.string() + " --steps 50");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK(run.output.find("2 links, 2 joint coordinates, 0 actuators, dt 0.001 s") != std::string::npos);
  const fs::path scene = dir.path / "double_pendulum.json";
  REQUIRE(fs::exists(scene));
  // The scene names the robot's file relative to its own folder.
  std::ifstream in(scene);
  const nlohmann::json j = nlohmann::json::parse(in);
  CHECK(j["articulations"]["source"] == "double_pendulum.xml");
  CHECK(j["articulations"]["links"].size() == 2);
  // validate says when the links meet each other
  CHECK(nudge("validate " + scene.string()).output.find("2 links (2 joint coordinates, 0 actuators), ") !=
        std::string::npos);
  nlohmann::json meeting = j;
  meeting["articulations"]["self_contact"] = true;
  const fs::path meeting_scene = dir.path / "meeting.json";
  std::ofstream(meeting_scene) << meeting.dump(1);
  CHECK(nudge("validate " + meeting_scene.string())
            .output.find("2 links (2 joint coordinates, 0 actuators, meeting each other), ") != std::string::npos);
  // and when material points meet them
  CHECK(nudge("validate " + (source_dir() / "scenes" / "jelly_catapult.json").string())
            .output.find("1 links (1 joint coordinates, 1 actuators, meeting the material points), ") !=
        std::string::npos);
  const fs::path joints = dir.path / "joints.csv";
  const Run sim = nudge("simulate " + scene.string() + " --joints-out " + joints.string());
  INFO(sim.output);
  REQUIRE(sim.exit_code == 0);
  std::ifstream csv(joints);
  std::string header;
  std::getline(csv, header);
  CHECK(header == "step,time,joint,link,q,qd");
  int rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  CHECK(rows == 2 * 51);
}

TEST_CASE("cli: import refuses what it cannot read, naming the file and line, and writes nothing") {
  TempDir dir;
  const fs::path robot = dir.path / "ball.xml";
  std::ofstream(robot)
      << "<mujoco>\n  <worldbody>\n    <body name=\"b\">\n      <joint type=\"ball\" range=\"0 200\"/>\n"
         "    </body>\n  </worldbody>\n</mujoco>\n";  // a cone wider than a half turn
  const Run run = nudge("import " + robot.string());
  INFO(run.output);
  CHECK(run.exit_code == 2);
  CHECK(run.output.find(robot.string() + ":4:") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path / "ball.json"));
  const Run missing = nudge("import " + (dir.path / "none.urdf").string());
  CHECK(missing.exit_code == 2);
  const Run other = nudge("import " + (source_dir() / "scenes/projectile.json").string());
  CHECK(other.exit_code == 2);
  CHECK(other.output.find("not a robot file") != std::string::npos);
}

TEST_CASE("cli: simulate --bodies-out writes every body's pose at every step") {
  TempDir dir;
  const fs::path out = dir.path / "bodies.csv";
  const Run run = nudge("simulate scenes/billiards.json --bodies-out " + out.string());
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::ifstream in(out);
  std::string header, first;
  std::getline(in, header);
  CHECK(header == "step,time,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz");
  std::getline(in, first);
  CHECK(first.rfind("0,0,0,0,", 0) == 0);      // step 0, body 0 (the cue ball) at x = 0
  std::vector<std::vector<double>> rows_read;  // every row's numbers
  const auto numbers = [](const std::string& line) {
    std::vector<double> values;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) values.push_back(std::stod(field));
    return values;
  };
  rows_read.push_back(numbers(first));
  for (std::string line; std::getline(in, line);) rows_read.push_back(numbers(line));
  CHECK(rows_read.size() == 2 * 1501);  // two balls, 1500 steps plus the initial state
  REQUIRE(rows_read[0].size() == 16);
  // The cue ball starts moving and the object ball at rest; a semi-implicit step moves the
  // centre by dt times the new velocity.
  CHECK(std::hypot(rows_read[0][10], rows_read[0][12]) > 0.1);
  CHECK(rows_read[1][10] == 0.0);
  const std::vector<double>&before = rows_read[0], &after = rows_read[2];  // the cue ball at steps 0 and 1
  const double dt = after[1] - before[1];
  for (int k = 0; k < 3; ++k)
    CHECK((after[3 + k] - before[3 + k]) / dt == doctest::Approx(after[10 + k]).epsilon(1e-6));
}

TEST_CASE("cli: optimize writes the result, the loss log and the optimised scene") {
  TempDir dir;
  const fs::path result = dir.path / "result.json", log = dir.path / "loss.csv", scene = dir.path / "opt.json";
  const Run run = nudge("optimize scenes/projectile.json --iterations 5 --out " + result.string() + " --log " +
                        log.string() + " --write-scene " + scene.string());
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(read_file(result));
  REQUIRE(j.contains("loss_history"));
  CHECK(j["loss_history"].size() >= 2);
  CHECK(j["final_loss"].get<double>() < j["initial_loss"].get<double>());
  CHECK(j["parameters"].contains("initial_velocity"));
  CHECK(j["timings"]["total_s"].get<double>() > 0.0);
  CHECK(contains(read_file(log), "iteration,loss,grad_norm"));
  // The optimised scene is a valid scene whose loss is the final loss.
  const Run simulated = nudge("simulate " + scene.string());
  INFO(simulated.output);
  CHECK(simulated.exit_code == 0);
}

// What a newcomer sees without flags: the values found, and a result file where they ran
// the command (issue 25: nothing was printed or written without --out).
TEST_CASE("cli: optimize prints the values found and writes a result file by default") {
  TempDir dir;
  const std::string scene = "'" + (source_dir() / "scenes" / "projectile.json").string() + "'";
  const Run run = nudge_in(dir.path, "optimize " + scene);
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(contains(run.output, "values found:\n  initial_velocity: 6.35764, 4.05587, 1.27153  (from 3, 3, 0)"));
  CHECK(contains(run.output, "wrote projectile.result.json"));
  const auto result = nlohmann::json::parse(read_file(dir.path / "projectile.result.json"));
  CHECK(result["final_loss"].get<double>() < 1e-20);
  CHECK(result["parameters"]["initial_velocity"]["value"].size() == 3);

  TempDir quiet;
  const Run none = nudge_in(quiet.path, "optimize " + scene + " --no-out");
  CHECK(none.exit_code == 0);
  CHECK(contains(none.output, "values found:"));
  CHECK(fs::is_empty(quiet.path));
}

TEST_CASE("cli: optimize with cmaes counts its simulations and writes no gradient norms") {
  TempDir dir;
  const fs::path result = dir.path / "result.json", log = dir.path / "loss.csv";
  const Run run = nudge(
      "optimize scenes/projectile.json --optimizer cmaes --iterations 20 --population 6 --sigma 0.2 "
      "--seed 3 --out " +
      result.string() + " --log " + log.string());
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(read_file(result));  // valid JSON: no NaN in it
  CHECK(j["optimizer"] == "cmaes");
  CHECK(j["iterations"] == 20);
  CHECK(j["evaluations"] == 1 + 20 * 6);  // the start, then 6 simulations per generation
  CHECK(j["final_loss"].get<double>() < j["initial_loss"].get<double>());
  REQUIRE(j["grad_norm_history"].size() == 21);
  for (const nlohmann::json& g : j["grad_norm_history"]) CHECK(g.is_null());
  CHECK(contains(read_file(log), "iteration,loss,grad_norm"));

  const Run tiny = nudge("optimize scenes/projectile.json --optimizer cmaes --population 1");
  CHECK(tiny.exit_code == 2);
  const Run flat = nudge("optimize scenes/projectile.json --optimizer cmaes --sigma 0");
  CHECK(flat.exit_code == 2);
}

TEST_CASE("cli: gradcheck passes on an example and fails an impossible tolerance") {
  const Run ok = nudge("gradcheck scenes/projectile.json");
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
  CHECK(contains(ok.output, "initial_velocity"));
  // Steps so small that the differences are rounding noise: nothing can be verified, and it says so.
  const Run strict = nudge("gradcheck scenes/spring_sysid.json --step 1e-12");
  INFO(strict.output);
  CHECK(strict.exit_code == 1);
  CHECK(contains(strict.output, "FAIL"));
}

TEST_CASE("cli: gradcheck checks the optimised parameters, --all every one, --params those named") {
  const Run optimised = nudge("gradcheck scenes/projectile.json");
  INFO(optimised.output);
  CHECK(optimised.exit_code == 0);
  CHECK(contains(optimised.output, "initial_velocity"));
  CHECK_FALSE(contains(optimised.output, "\nmass "));
  CHECK(contains(optimised.output, "3 entries"));
  CHECK_FALSE(contains(optimised.output, "not checked"));  // 3 entries, all in the sample
  // A sample smaller than the parameter says what it left out.
  const Run sampled = nudge("gradcheck scenes/projectile.json --samples 2");
  INFO(sampled.output);
  CHECK(sampled.exit_code == 0);
  CHECK(contains(sampled.output, "not checked: 1 entry outside the sample of 2 per parameter"));
  CHECK(contains(sampled.output, "initial_velocity 1 of 3"));
  const Run all = nudge("gradcheck scenes/projectile.json --all");
  CHECK(all.exit_code == 0);
  CHECK(contains(all.output, "\nmass "));
  const Run named = nudge("gradcheck scenes/projectile.json --params drag,mass");
  CHECK(named.exit_code == 0);
  CHECK(contains(named.output, "2 entries"));
  const Run unknown = nudge("gradcheck scenes/projectile.json --params dragg");
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.output, "unknown parameter 'dragg'"));
}

// Release only: it pins the release build's rounding, which the sanitizers' -O1 build
// need not share, and its 40 entries of the cloth's gradcheck took 151 s of this suite's
// 185 s there.
TEST_CASE("cli: gradcheck accepts rounding noise next to a parameter's scale, and only that" *
          doctest::skip(kSanitized)) {
  // The cloth's stiffness entry 1160 is 2.2e-10 next to a largest entry of 4.1e-5: adjoint
  // and difference differ by 2.05e-14, 9e-5 of the entry and just over the difference's
  // uncertainty (1.95e-14), but 5e-10 of the gradient's scale, under its noise floor. It
  // used to fail the whole check.
  const Run noise = nudge("gradcheck scenes/cloth.json --params stiffness --samples 40");
  INFO(noise.output);
  CHECK(noise.exit_code == 0);
  CHECK(contains(noise.output, "1 rounding noise: ok"));
  CHECK(contains(noise.output, "(rounding noise next to the parameter's gradient)"));
  const Run strict = nudge("gradcheck scenes/cloth.json --params stiffness --samples 40 --noise 0");
  INFO(strict.output);
  CHECK(strict.exit_code == 1);
  CHECK(contains(strict.output, "1 over tolerance"));
}

TEST_CASE("cli: gradient writes every parameter's full gradient, or those named") {
  TempDir dir;
  const fs::path out = dir.path / "g.json";
  const Run run = nudge("gradient scenes/bounce.json --device cpu --out '" + out.string() + "'");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(read_file(out));
  CHECK(j["loss"].get<double>() == doctest::Approx(9.1057418));
  const nlohmann::json& v0 = j["parameters"]["initial_velocity"];
  CHECK(v0["shape"] == nlohmann::json::array({1, 3}));
  CHECK(v0["optimized"] == true);
  CHECK(v0["gradient"][0][0].get<double>() == doctest::Approx(-4.97276).epsilon(1e-5));
  CHECK(v0["gradient"][0][1].get<double>() == doctest::Approx(-0.398563).epsilon(1e-5));
  // By default the scene's own parameters: the bouncing ball has no springs, bodies or controls.
  for (const char* name : {"initial_position", "mass", "drag", "gravity", "particle_radius"})
    CHECK_MESSAGE(j["parameters"].contains(name), name);
  for (const char* name : {"stiffness", "controls", "body_density", "joint_anchor"})
    CHECK_MESSAGE(!j["parameters"].contains(name), name);
  CHECK(run.output.find("\nstiffness ") == std::string::npos);  // nor in the printed table
  const Run named = nudge("gradient scenes/projectile.json --params mass,drag --out '" + out.string() + "'");
  REQUIRE(named.exit_code == 0);
  const nlohmann::json two = nlohmann::json::parse(read_file(out));
  CHECK(two["parameters"].size() == 2);
  CHECK(two["parameters"].contains("drag"));
  const Run bad = nudge("gradient scenes/projectile.json --params nope");
  CHECK(bad.exit_code == 2);
  const Run unwritable = nudge("gradient scenes/projectile.json --out /nonexistent-folder/g.json");
  CHECK(unwritable.exit_code == 2);
}

TEST_CASE("cli: sweep writes a table, resumes it, and refuses bad axes and another sweep's table") {
  TempDir dir;
  const std::string table = (dir.path / "p.csv").string();
  const std::string args =
      "sweep scenes/pendulum_length.json --param rest_length=0.6:1:5 --param damping=10:30:3 "
      "--threads 2 --out '" +
      table + "'";
  const Run run = nudge(args);
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK(contains(run.output, "15 points (5 x 3), loss mode"));
  CHECK(contains(run.output, "lowest loss"));
  CHECK(contains(run.output, "rest_length 0.8, damping 20"));
  const std::string written = read_file(table);
  CHECK(written.rfind("# nudge sweep: mode=loss fingerprint=", 0) == 0);
  CHECK(contains(written, "\nindex,rest_length,damping,loss,status\n"));
  // Run again: every point is there, none runs; the table is as it was.
  const Run again = nudge(args);
  REQUIRE(again.exit_code == 0);
  CHECK(contains(again.output, "resuming: 15 already there"));
  CHECK(contains(again.output, "0 points in"));
  CHECK(read_file(table) == written);
  // Another sweep into the same table is refused and the file left alone.
  const Run other = nudge("sweep scenes/pendulum_length.json --param rest_length=0.6:1:6 --out '" + table + "'");
  CHECK(other.exit_code == 2);
  CHECK(contains(other.output, "begun by another sweep"));
  CHECK(read_file(table) == written);
  // Bad axes name what is wrong.
  const Run unknown = nudge("sweep scenes/pendulum_length.json --param rest_lenght=1:2:3 --out '" + table + "'");
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.output, "no parameter named 'rest_lenght'"));
  const Run row = nudge("sweep scenes/pendulum_length.json --param 'rest_length[2]=1:2:3' --out '" + table + "'");
  CHECK(row.exit_code == 2);
  CHECK(contains(row.output, "row 2 does not exist"));
  const Run no_axis = nudge("sweep scenes/pendulum_length.json");
  CHECK(no_axis.exit_code == 2);
  const std::string parquet = (dir.path / "p.parquet").string();
  const Run to_parquet = nudge("sweep scenes/pendulum_length.json --param rest_length=1 --out '" + parquet + "'");
  CHECK(to_parquet.exit_code == 2);
  CHECK(contains(to_parquet.output, "this command writes CSV"));
  CHECK_FALSE(fs::exists(parquet));
}

TEST_CASE("cli: bench cloth prints the spec's JSON on its last line") {
  const Run run = nudge("bench cloth --n 8 --steps 20 --runs 1 --dtype float64 --device cpu");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::string last = run.output;
  while (!last.empty() && last.back() == '\n') last.pop_back();
  last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
  const nlohmann::json j = nlohmann::json::parse(last);
  for (const char* field : {"impl", "bench", "n", "steps", "dtype", "loss", "grad_v0_norm", "grad_k_norm", "forward_s",
                            "gradient_s", "runs", "threads"})
    CHECK_MESSAGE(j.contains(field), field);
  CHECK(j["bench"] == "cloth");
  CHECK(j["n"] == 8);
}

TEST_CASE("cli: bench cloth_throw prints the spec's JSON on its last line; bad options are errors") {
  const Run run = nudge("bench cloth_throw --steps 20 --runs 1 --dtype float64 --device cpu --threads 1");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  std::string last = run.output;
  while (!last.empty() && last.back() == '\n') last.pop_back();
  last = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
  const nlohmann::json j = nlohmann::json::parse(last);
  for (const char* field : {"impl", "bench", "n", "steps", "dtype", "loss", "grad_v0_norm", "grad_k_norm", "forward_s",
                            "gradient_s", "runs", "threads"})
    CHECK_MESSAGE(j.contains(field), field);
  CHECK(j["bench"] == "cloth_throw");
  CHECK(j["n"] == 17);
  CHECK(j["steps"] == 20);
  CHECK(j["dtype"] == "float64");
  CHECK(j["threads"] == 1);

  for (const char* bad : {"--steps 0", "--runs 0", "--dtype float16", "--device tpu", "--threads -1", "--checkpoint -1",
                          "--n 32", "--steps"}) {
    CAPTURE(bad);
    const Run refused = nudge(std::string("bench cloth_throw --runs 1 ") + bad);
    CHECK(refused.exit_code == 2);
  }

  TempDir dir;
  const Run written = nudge("bench cloth_throw --write-scene '" + (dir.path / "b3.json").string() + "'");
  CHECK(written.exit_code == 0);
  CHECK(read_file(dir.path / "b3.json") == read_file(source_dir() / "scenes" / "cloth_throw.json"));
}

TEST_CASE("cli: --device auto falls back to the CPU with one message; --device cuda without a GPU is an error") {
  const Run automatic = nudge("simulate scenes/projectile.json --device auto");
  INFO(automatic.output);
  CHECK(automatic.exit_code == 0);
  // Without --device, a machine without a GPU is not news: nothing is said (issue 25).
  const Run plain = nudge("simulate scenes/projectile.json");
  CHECK(plain.exit_code == 0);
  CHECK_FALSE(contains(plain.output, "CUDA"));
  CHECK(contains(plain.output, "simulated 500 steps"));
  const Run cuda = nudge("simulate scenes/projectile.json --device cuda");
  INFO(cuda.output);
  // Decided at run time: a machine with a GPU runs on it; one without says why, once.
  if (contains(automatic.output, "running on the CPU")) {
    size_t count = 0;
    for (size_t at = automatic.output.find("running on the CPU"); at != std::string::npos;
         at = automatic.output.find("running on the CPU", at + 1))
      ++count;
    CHECK(count == 1);
    CHECK(cuda.exit_code == 2);
    CHECK(contains(cuda.output, "--device cuda"));
  } else {
    CHECK(cuda.exit_code == 0);
  }
}

namespace {

// Width and height from a PNG's IHDR chunk (bytes 16-23, big-endian); {0, 0} if not a PNG.
std::pair<int, int> png_size(const fs::path& path) {
  const std::string bytes = read_file(path);
  if (bytes.size() < 24 || bytes.compare(1, 3, "PNG") != 0) return {0, 0};
  auto be32 = [&](size_t at) {
    int v = 0;
    for (size_t k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(bytes[at + k]);
    return v;
  };
  return {be32(16), be32(20)};
}

}  // namespace

TEST_CASE("cli: render writes a PNG of one frame, and a sequence of the whole motion") {
  TempDir dir;
  const fs::path shot = dir.path / "shot.png";
  const Run one =
      nudge("render scenes/projectile.json --out '" + shot.string() + "' --width 200 --height 120 --validate");
  INFO(one.output);
  CHECK(one.exit_code == 0);
  CHECK(png_size(shot) == std::pair<int, int>{200, 120});

  // 500 steps of 2 ms at 20 fps: a frame every 25 steps, 0 to 475, and the last step.
  const fs::path frames = dir.path / "frames";
  const Run seq =
      nudge("render scenes/projectile.json --frames '" + frames.string() + "' --fps 20 --width 64 --height 48");
  INFO(seq.output);
  CHECK(seq.exit_code == 0);
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(frames)) count += entry.path().extension() == ".png";
  CHECK(count == 21);
  CHECK(png_size(frames / "frame_00020.png") == std::pair<int, int>{64, 48});
}

TEST_CASE("cli: render refuses bad requests with a message and writes nothing") {
  TempDir dir;
  const std::string out = "'" + (dir.path / "x.png").string() + "'";
  struct Case {
    std::string args, message;
    int exit_code;
  };
  for (const Case& c : std::vector<Case>{
           {"render scenes/projectile.json --out " + out + " --frame 100000", "past the last step", 2},
           {"render scenes/projectile.json --out " + out + " --eye 1 2 3", "--eye and --target go together", 2},
           {"render scenes/projectile.json", "exactly one of --out", 2},
           {"render scenes/projectile.json --out " + out + " --eye 1 1 1 --target 1 1 1", "camera", 2},
           {"render scenes/missing.json --out " + out, "missing.json", 2},
           {"render scenes/projectile.json --out '" + (dir.path / "no" / "such" / "x.png").string() + "'", "x.png", 1},
       }) {
    const Run run = nudge(c.args);
    INFO(c.args);
    INFO(run.output);
    CHECK(run.exit_code == c.exit_code);
    CHECK(contains(run.output, c.message));
  }
  CHECK(fs::is_empty(dir.path));
}
