"""tools/common/input_checks.py, the one reader of user input the Python tools share (issue 34): a CSV
cell that is not a finite number is refused by file, line and column; a binary file by file and
line (and column, when its bytes sit in a data row); a row cut short by its line (or left out
when it is the last and may still be written); NaN and infinities wherever a number is read, but
in the columns whose writer means "undefined" by nan; a tool's error is one line and exit status
2, a bug one line and 1, never a traceback (--debug shows it); the small tools refuse a NaN or
an infinity on their command line and a missing input file the same way."""
import contextlib
import importlib.util
import io
import math
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TRACKCOSIM = os.path.join(ROOT, "tools", "launcher", "trackcosim.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from common.input_checks import (EXIT_BAD_INPUT, EXIT_OUTPUT_CLOSED, EXIT_RUN_FAILED, InputError,  # noqa: E402
                                 finite_number, number_list_member, read_csv, read_json, run_guarded)


class CsvTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.path = os.path.join(folder.name, "vehicle.csv")

    def write(self, data):
        with open(self.path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())

    def refused(self, *words, **options):
        with self.assertRaises(InputError) as caught:
            read_csv(self.path, **options)
        message = str(caught.exception)
        self.assertTrue(message.startswith(self.path + ": "), message)
        for word in words:
            self.assertIn(word, message)
        return message

    def test_a_cell_that_is_not_a_number_is_named_by_line_and_column(self):
        self.write("t,x,side\n0.1,1,left\n0.2,abc,left\n")
        self.refused("line 3, column x: expected a finite number, got 'abc'", texts=("side",))
        self.assertEqual(read_csv(self.path, texts=("side", "x")).rows[1]["x"], "abc")  # x holds words here

    def test_nan_and_infinities_are_refused_but_where_the_writer_means_undefined(self):
        for cell in ("nan", "inf", "-inf", "-nan", "1e999"):
            self.write("t,slip\n0.1,%s\n" % cell)
            self.refused("line 2, column slip: expected a finite number, got %r" % cell)
        self.write("t,slip\n0.1,nan\n0.2,-nan\n")
        self.assertTrue(math.isnan(read_csv(self.path, nan_columns=("slip",)).numbers("slip")[0]))
        self.write("nan,slip\n0.1,inf\n")
        self.refused("column slip", nan_columns=("slip",))

    def test_a_blank_cell_only_where_blanks_are_allowed(self):
        self.write("t,x\n0.1,\n")
        self.refused("line 2, column x: expected a finite number, got ''")
        self.assertTrue(math.isnan(read_csv(self.path, blanks=True).numbers("x")[0]))

    def test_a_binary_file_is_named_with_its_line_and_column(self):
        self.write(b"t,x,z\n0.1,1,2\n0.2,\xa7\x01,2\n")
        self.refused("line 3, column x: byte 0xa7 is not text")
        self.write(bytes(range(256)) * 4)
        self.refused("line 1: not a CSV file (byte 0x00")

    def test_a_row_cut_short_is_refused_unless_it_is_the_unfinished_last(self):
        self.write("t,x,z\n0.1,1,2\n0.2,1\n0.3,1,2\n")
        self.refused("line 3: 2 fields, the header has 3")
        self.write("t,x,z\n0.1,1,2\n0.2,1")
        self.refused("line 3: 2 fields, the header has 3")
        self.assertEqual(len(read_csv(self.path, torn_end=True).rows), 1)

    def test_missing_columns_and_an_empty_file(self):
        self.write("a,b\n1,2\n")
        self.refused("no column t, x: not a rig.csv", required=("t", "x"), what="a rig.csv")
        self.write("")
        self.refused("empty file")
        self.write("t,x\n")
        self.assertEqual(read_csv(self.path).rows, [])  # the caller says whether that is bad

    def test_a_missing_file_is_named(self):
        self.refused("cannot read a CSV file: No such file or directory")


class JsonTest(unittest.TestCase):
    def test_json_numbers_are_finite_numbers_and_no_strings(self):
        self.assertEqual(finite_number(2, "k"), 2.0)
        for value, shown in ((float("nan"), "the number nan"), (float("inf"), "the number inf"),
                             ("2", 'the string "2"'), (True, "a boolean"), (None, "null")):
            with self.assertRaisesRegex(InputError, "^s.json: a.b: expected a finite number, got %s$" % shown):
                finite_number(value, "s.json: a.b")
        self.assertEqual(finite_number("2.5", "--x", text=True), 2.5)

    def test_a_list_names_the_index_and_a_missing_key_its_path(self):
        document = {"small": {"torques": [1, "2"]}}
        with self.assertRaisesRegex(InputError, r"^s.json: small.torques\[1\]: expected a finite number"):
            number_list_member(document, ["small", "torques"], "s.json")
        with self.assertRaisesRegex(InputError, "^s.json: small.pulls: required key is missing$"):
            number_list_member(document, ["small", "pulls"], "s.json")

    def test_a_file_that_is_not_json_names_the_file_and_the_line(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "s.json")
            with open(path, "w") as f:
                f.write('{"a": [1, 2,]\n}')
            with self.assertRaisesRegex(InputError, "s.json: not a sweeps file: .*line 1 column 13"):
                read_json(path, "a sweeps file")


class GuardTest(unittest.TestCase):
    def guarded(self, error, argv=("tool",)):
        def main(argv):
            raise error
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            status = run_guarded("tool", main, list(argv))
        return status, stderr.getvalue()

    def test_bad_input_is_one_line_and_exit_status_2(self):
        status, stderr = self.guarded(InputError("f.csv: line 3, column x: expected a finite number"))
        self.assertEqual((status, stderr), (EXIT_BAD_INPUT, "tool: error: f.csv: line 3, column x: expected a "
                                                            "finite number\n"))
        status, stderr = self.guarded(FileNotFoundError(2, "No such file or directory", "f.csv"))
        self.assertEqual(status, EXIT_BAD_INPUT)
        self.assertIn("f.csv", stderr)

    def test_a_closed_output_ends_quietly_with_141(self):
        status, stderr = self.guarded(BrokenPipeError(32, "Broken pipe"))
        self.assertEqual((status, stderr), (EXIT_OUTPUT_CLOSED, ""))

    def test_a_bug_is_one_line_and_exit_status_1_and_debug_shows_the_traceback(self):
        os.environ.pop("TRACKCOSIM_DEBUG", None)
        status, stderr = self.guarded(KeyError("x"))
        self.assertEqual(status, EXIT_RUN_FAILED)
        self.assertEqual(len(stderr.splitlines()), 1, stderr)
        self.assertIn("tool: internal error: KeyError", stderr)
        status, stderr = self.guarded(KeyError("x"), ("tool", "--debug"))
        self.assertIn("Traceback", stderr)


class SmallToolsTest(unittest.TestCase):
    """The tools with a command line of their own, besides trackcosim and anchor_sweep."""

    def refuses(self, tool, *args, words=()):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", tool)] + list(args),
                                capture_output=True, text=True, timeout=60)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(result.returncode, EXIT_BAD_INPUT, result.stderr)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        for word in words:
            self.assertIn(word, result.stderr)

    def test_numbers_on_the_command_line_are_finite(self):
        self.refuses("meshes/shoe_mesh.py", "--length", "inf", "-o", os.devnull,
                     words=("argument --length: expected a finite number, got 'inf'",))
        self.refuses("launcher/launch_guard.py", "--grace", "nan", "--", "true",
                     words=("--grace takes seconds, got 'nan'",))
        result = subprocess.run([sys.executable, TRACKCOSIM, "render", ROOT,
                                 "--start", "inf"], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, EXIT_BAD_INPUT, result.stderr)
        self.assertIn("--start: expected a time in seconds, got 'inf'", result.stderr)
        if importlib.util.find_spec("numpy") and importlib.util.find_spec("matplotlib"):
            self.refuses("anchor/anchor_spheres.py", "--radius", "inf", "-o", os.devnull, words=("--radius",))
            self.refuses("anchor/anchor_spheres.py", "--spacing", "nan", "-o", os.devnull, words=("--spacing",))
            self.refuses("meshes/plot_mesh_spheres.py", "a.obj", "b.json", "--elev", "nan", words=("--elev",))

    def test_a_missing_input_file_is_named(self):
        self.refuses("layout/check_layout.py", "--rules", "/no/rules.json", words=("/no/rules.json: cannot read",))
        if importlib.util.find_spec("numpy") and importlib.util.find_spec("matplotlib"):
            self.refuses("meshes/plot_mesh_spheres.py", "/no/part.obj", "/no/spheres.json", words=("/no/part.obj",))


if __name__ == "__main__":
    unittest.main()
