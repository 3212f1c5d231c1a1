"""tools/common/bed_statistics.py against hand-computed values: the mean and its standard error, the
relative change of two means with its 95% half width (Student's t at 2N - 2 degrees of freedom),
and the three verdicts."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from common import bed_statistics as stats  # noqa: E402


class BedStatisticsTest(unittest.TestCase):
    def test_mean_and_standard_error(self):
        mean, sem = stats.mean_and_sem([1.0, 2.0, 3.0, 6.0])
        self.assertAlmostEqual(mean, 3.0)
        self.assertAlmostEqual(sem, math.sqrt(14.0 / 3.0 / 4.0))  # sample variance 14/3, n = 4
        with self.assertRaises(ValueError):
            stats.mean_and_sem([1.0])

    def test_students_t_errs_wide_between_the_table_entries(self):
        self.assertEqual(stats.t_975(2), 4.303)
        self.assertEqual(stats.t_975(11), 2.228)  # 10's entry, wider than 11's 2.201
        self.assertEqual(stats.t_975(1000), 1.960)

    def test_relative_change_of_two_means(self):
        # base 2 +- 0 and variant 2.2 +- 0: exactly +10%, no spread
        change, half = stats.relative_change([2.2, 2.2, 2.2], [2.0, 2.0, 2.0])
        self.assertAlmostEqual(change, 0.1)
        self.assertAlmostEqual(half, 0.0)
        # a spread: base 1, 3 (mean 2, sem 1); variant 2, 2 (sem 0); 2 degrees of freedom
        change, half = stats.relative_change([2.0, 2.0], [1.0, 3.0])
        self.assertAlmostEqual(change, 0.0)
        self.assertAlmostEqual(half, 4.303 * 2.0 * 1.0 / 4.0)  # t * mean_v * sem_b / mean_b^2

    def test_verdicts(self):
        self.assertEqual(stats.verdict(0.01, 0.02, 0.05), "yes")
        self.assertEqual(stats.verdict(-0.10, 0.03, 0.05), "no")
        self.assertEqual(stats.verdict(0.03, 0.04, 0.05), "unresolved")
        self.assertEqual(stats.verdict(0.08, 0.04, 0.05), "unresolved")


if __name__ == "__main__":
    unittest.main()
