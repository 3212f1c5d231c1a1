"""Checks of a standalone terrain run folder written on RANKS ranks (terrain_node --config), for
the shell tests of tests/mpi. Standard library only.

  frames RUN RANKS   every frame of particles.pvd is a .pvtu naming one piece per rank,
                     particles/step_<k>_r<rank>.vtu, and no gathered particles/step_<k>.vtu is
                     written; together the pieces hold every particle of run.json's particle gid
                     ranges exactly once. Prints each frame merged over its pieces, sorted by gid,
                     with the values as written (so two runs' outputs compare byte for byte
                     whatever their rank counts).
  memory RUN RANKS   run.json's "memory" has one start-up and one peak resident size per rank,
                     all above zero, and no peak below its rank's start-up figure.
Exits 1 with one line naming what is wrong."""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from common.vtk_reader import VtkError, read_grid  # noqa: E402


def fail(message):
    print("run_folder_checks: %s" % message, file=sys.stderr)
    sys.exit(1)


def particle_gids(run):
    """The gids run.json names as particles (gid_ranges whose what starts with particles[)."""
    with open(os.path.join(run, "run.json")) as f:
        ranges = json.load(f)["gid_ranges"]
    return {g for r in ranges if r["what"].startswith("particles[") for g in range(r["first"], r["first"] + r["count"])}


def piece_rows(vtu):
    """[(gid, text of the point's values)] of one piece, each value as the file holds it (ASCII or
    binary: tools/common/vtk_reader.py), so that equal text means equal bits."""
    try:
        grid = read_grid(vtu)
    except VtkError as e:
        fail(str(e))
    n = len(grid.points)
    arrays = sorted(grid.point_data.items()) + [("points", grid.points)]
    for name, values in arrays:
        if len(values) != n:
            fail("%s: %s holds %d values for %d points" % (vtu, name, len(values), n))
    return [(grid.point_data["gid"][i], " ".join("%s=%s" % (name, repr(values[i])) for name, values in arrays))
            for i in range(n)]


def frames(run, ranks):
    particles = particle_gids(run)
    entries = [d.get("file") for d in ET.parse(os.path.join(run, "particles.pvd")).getroot().iter("DataSet")]
    if not entries:
        fail("%s/particles.pvd lists no frames" % run)
    folder = os.path.join(run, "particles")
    gathered = [f for f in os.listdir(folder) if re.fullmatch(r"step_\d{8}\.vtu", f)]
    if gathered:
        fail("%s holds gathered frames %s instead of one piece per rank" % (folder, gathered[:3]))
    for entry in entries:
        if not re.fullmatch(r"particles/step_\d{8}\.pvtu", entry):
            fail("particles.pvd lists %s, not particles/step_<k>.pvtu" % entry)
        pvtu = os.path.join(run, entry)
        stem = os.path.basename(entry)[:-len(".pvtu")]
        sources = [p.get("Source") for p in ET.parse(pvtu).getroot().iter("Piece")]
        expected = ["%s_r%d.vtu" % (stem, r) for r in range(ranks)]
        if sources != expected:
            fail("%s names the pieces %s, expected one per rank: %s" % (pvtu, sources, expected))
        rows = []
        for source in sources:
            rows += piece_rows(os.path.join(folder, source))
        gids = [g for g, _ in rows]
        if len(set(gids)) != len(gids):
            fail("%s: %d particles appear in more than one piece" % (pvtu, len(gids) - len(set(gids))))
        if set(gids) != particles:
            fail("%s: the pieces hold %d particles, run.json names %d (%d missing, %d not particles)"
                 % (pvtu, len(gids), len(particles), len(particles - set(gids)), len(set(gids) - particles)))
        print(entry)
        for _, text in sorted(rows):
            print(text)


def memory(run, ranks):
    with open(os.path.join(run, "run.json")) as f:
        m = json.load(f).get("memory")
    if m is None:
        fail("%s/run.json has no memory" % run)
    baseline, peak = m.get("baseline_rss_bytes"), m.get("peak_rss_bytes")
    if not (isinstance(baseline, list) and isinstance(peak, list) and len(baseline) == len(peak) == ranks):
        fail("%s/run.json memory: expected %d start-up and %d peak figures, found %s" % (run, ranks, ranks, m))
    if min(baseline + peak) <= 0:
        fail("%s/run.json memory: a figure is 0: %s" % (run, m))
    low = [r for r in range(ranks) if peak[r] < baseline[r]]
    if low:
        fail("%s/run.json memory: rank %d's peak %d is below its start-up figure %d"
             % (run, low[0], peak[low[0]], baseline[low[0]]))
    if not m.get("note"):
        fail("%s/run.json memory has no note saying what the figures are" % run)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("frames", "memory"):
        fail("usage: run_folder_checks.py frames|memory RUN RANKS")
    {"frames": frames, "memory": memory}[sys.argv[1]](sys.argv[2], int(sys.argv[3]))
