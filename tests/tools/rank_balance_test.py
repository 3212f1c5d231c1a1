"""tools/launcher/rank_balance.py: the launcher's rank balance line from terrain/ranks.csv (issue 33: the
M113's leader waited 262 ms per step in its halo, and only the other rank's clocks say why).

Hand-made files, answers known by hand:
  - 2 ranks, 4 steps: rank 0 works 1.0 s per step, rank 1 1.5 s: mean 1.25, rank 1 is 20% above;
  - 3 ranks with equal work: no imbalance;
  - no file, one rank, a cut last line, a missing rank: what the summary must not trip on."""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from launcher.rank_balance import rank_balance, rank_balance_line  # noqa: E402

HEADER = "step,rank,owned,ghosts,contacts,solve_s,halo_s,work_s\n"


class RankBalanceTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.folder, "terrain"))

    def tearDown(self):
        shutil.rmtree(self.folder)

    def write(self, rows, tail=""):
        with open(os.path.join(self.folder, "terrain", "ranks.csv"), "w") as f:
            f.write(HEADER + "".join(",".join(str(v) for v in row) + "\n" for row in rows) + tail)

    def test_the_slower_rank_and_its_share_above_the_mean(self):
        self.write([(s, r, 1000 + r, 50, 2000 + 1000 * r, 1.2, 0.1, 1.0 + 0.5 * r) for s in range(4) for r in (0, 1)])
        b = rank_balance(self.folder)
        self.assertEqual((b["ranks"], b["steps"], b["slowest"]), (2, 4, 1))
        self.assertAlmostEqual(b["imbalance"], 0.2)
        self.assertEqual(b["work_s"], [1.0, 1.5])
        self.assertEqual(b["contacts"], [2000, 3000])
        line = rank_balance_line(b)
        self.assertIn("rank 0 1000.0 ms (2000 contacts), rank 1 1500.0 ms (3000 contacts)", line)
        self.assertIn("rank 1 is 20.0% above the mean", line)

    def test_equal_ranks_are_balanced(self):
        self.write([(s, r, 10, 5, 100, 0.5, 0.1, 0.4) for s in range(3) for r in (0, 1, 2)])
        b = rank_balance(self.folder)
        self.assertEqual(b["ranks"], 3)
        self.assertAlmostEqual(b["imbalance"], 0.0)

    def test_a_cut_last_line_is_left_out(self):
        self.write([(0, 0, 10, 5, 100, 0.5, 0.1, 1.0), (0, 1, 10, 5, 100, 0.5, 0.1, 3.0)], tail="1,0,10,5,10")
        b = rank_balance(self.folder)
        self.assertEqual(b["work_s"], [1.0, 3.0])
        self.assertAlmostEqual(b["imbalance"], 0.5)

    def test_nothing_to_say(self):
        self.assertIsNone(rank_balance(self.folder))   # no file: one terrain rank
        self.assertIsNone(rank_balance_line(None))
        self.write([(s, 0, 10, 5, 100, 0.5, 0.1, 0.4) for s in range(3)])
        self.assertIsNone(rank_balance(self.folder))   # one rank
        self.write([(0, 0, 10, 5, 100, 0.5, 0.1, 0.4), (0, 2, 10, 5, 100, 0.5, 0.1, 0.4)])
        self.assertIsNone(rank_balance(self.folder))   # rank 1 missing
        self.write([])
        self.assertIsNone(rank_balance(self.folder))   # no whole step


if __name__ == "__main__":
    unittest.main()
