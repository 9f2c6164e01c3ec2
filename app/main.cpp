#include "cli/cli.h"

int main(int argc, char** argv) { return nudge::run_command_line(argc, argv); }
