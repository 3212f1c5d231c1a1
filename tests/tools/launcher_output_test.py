"""tools/launcher/trackcosim.py reads the programs' summary and stop lines from their merged stdout and
stderr: a line must be found even when a fragment of a progress line precedes it (mpirun forwards
the two streams apart), and an error message that merely contains the words must not pass for
one."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from launcher.trackcosim import parse_line  # noqa: E402

# As a fresh-clone CI run printed it, before progress lines were written in one piece.
MERGED = ("vehicle_node: t = 0.8vehicle cosim steps=800 shoes=122 particles=3100 distance_m=0.0093\n"
          " / 0.8 s, 79 coupling steps/s, ETA 0 s\n"
          "terrain cosim steps=800 shoes=122 ranks=2 wall_s=10.007\n")


class ParseLineTest(unittest.TestCase):
    def test_a_line_after_a_fragment_is_found_whole(self):
        self.assertEqual(parse_line("vehicle cosim", MERGED),
                         {"steps": "800", "shoes": "122", "particles": "3100", "distance_m": "0.0093"})
        self.assertEqual(parse_line("terrain cosim", MERGED)["wall_s"], "10.007")

    def test_words_in_an_error_message_are_no_stop_line(self):
        text = "terrain_node: error: the vehicle stopped: the vehicle diverged at t = 0.1 s\n"
        self.assertIsNone(parse_line("vehicle stopped", text))
        self.assertEqual(parse_line("vehicle stopped", text + "vehicle stopped by=USR1 step=7\n"),
                         {"by": "USR1", "step": "7"})


if __name__ == "__main__":
    unittest.main()
