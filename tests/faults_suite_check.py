#!/usr/bin/env python3
"""faults_suite_check.py BUILD_DIR CASES_FILE: every gtest case named in CASES_FILE (one per line,
written by trackcosim_label_faults in tests/CMakeLists.txt) is a ctest entry with the label
"faults"; the suite also holds the fault scripts. Exit 1 naming what is missing."""
import subprocess
import sys

build, cases_file = sys.argv[1], sys.argv[2]
wanted = [line.strip() for line in open(cases_file) if line.strip()]


def ctest_names(*options):
    listing = subprocess.run(["ctest", "-N"] + list(options), cwd=build, capture_output=True, text=True,
                             check=True).stdout
    return {line.split(": ", 1)[1].strip() for line in listing.splitlines()
            if line.strip().startswith("Test") and ": " in line}


labelled = ctest_names("-L", "faults")
scripts = ["cosim_hung_peer_ends_the_job", "cosim_crash_keeps_outputs", "cosim_terrain_errors_are_printed",
           "cosim_periodic_checkpoint_resume",
           "cosim_listens_on_loopback_only", "launcher_loopback_on_one_host", "launcher_summary_over_steady_window",
           "launcher_refuses_bad_input", "terrain_node_lost_peer_ends_the_job_np2",
           "input_checks_refuse_bad_cells", "anchor_sweep_refuses_bad_input", "mobility_collect_refuses_broken_rig_csv",
           "mesh_spheres_refuses_bad_numbers", "cosim_resume_checks_both_configs", "cosim_interrupt_says_how_to_resume",
           "terrain_node_signal_ends_the_wait_for_the_vehicle", "crash_inside_mpi_is_one_line"]
# Registered only where a python3 imports matplotlib and numpy (tests/tools/CMakeLists.txt).
plot_scripts = {"plot_refuses_bad_input", "launcher_plots_under_a_python_without_numpy"}
scripts += sorted(plot_scripts & ctest_names())
missing = [name for name in wanted + scripts if name not in labelled]
if missing:
    print("not in the faults suite (renamed or not built?): " + ", ".join(missing))
    sys.exit(1)
print("faults suite: %d entries, all %d named cases and scripts present" % (len(labelled), len(wanted) + len(scripts)))
