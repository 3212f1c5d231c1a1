#!/usr/bin/env python3
"""faults_suite_check.py BUILD_DIR CASES_FILE: every gtest case named in CASES_FILE (one per line,
written by trackcosim_label_faults in tests/CMakeLists.txt) is a ctest entry with the label
"faults"; the suite also holds the fault scripts. Exit 1 naming what is missing."""
import subprocess
import sys

build, cases_file = sys.argv[1], sys.argv[2]
wanted = [line.strip() for line in open(cases_file) if line.strip()]
listing = subprocess.run(["ctest", "-N", "-L", "faults"], cwd=build, capture_output=True, text=True, check=True).stdout
labelled = {line.split(": ", 1)[1].strip() for line in listing.splitlines() if line.strip().startswith("Test") and ": " in line}
scripts = ["cosim_hung_peer_ends_the_job", "cosim_crash_keeps_outputs", "cosim_terrain_errors_are_printed",
           "cosim_periodic_checkpoint_resume",
           "launcher_refuses_bad_input", "terrain_node_lost_peer_ends_the_job_np2"]
missing = [name for name in wanted + scripts if name not in labelled]
if missing:
    print("not in the faults suite (renamed or not built?): " + ", ".join(missing))
    sys.exit(1)
print("faults suite: %d entries, all %d named cases and scripts present" % (len(labelled), len(wanted) + len(scripts)))
