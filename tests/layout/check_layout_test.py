"""tools/layout/check_layout.py on small synthetic trees whose answers are known: a clean tree passes,
a forbidden include is reported with its file and line, the longest matching rule wins, a room
without a rule and a folder without one are refused, system headers are ignored, a circle of
Python imports in tools/ is refused, also across its rooms (sub-folders), and the rooms import down
their own arrows ("python_rules")."""
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from layout import check_layout  # noqa: E402

RULES = {
    "rules": {
        "low": [],
        "mid": ["low"],
        "app": ["mid", "low"],
        "app/inner": ["low"],
    },
    "unruled": ["tests"],
    "mpi_only_in": ["low"],
}


# The rooms of tools/, with arrows of their own (the real ones: tools/layout/layout_arrows.json).
ROOM_RULES = dict(RULES, python_rules={
    "tools/base": [],
    "tools/middle": ["tools/base"],
    "tools/top": ["tools/middle", "tools/base"],
})


class Trees:
    """A synthetic tree checked with `rules`."""
    rules = RULES

    def tree(self, files):
        root = tempfile.mkdtemp()
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        rules = os.path.join(root, "rules.json")
        with open(rules, "w") as f:
            json.dump(self.rules, f)
        return root, rules

    def run_check(self, files):
        root, rules = self.tree(files)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = check_layout.main(["--root", root, "--rules", rules])
        return code, out.getvalue()

    def assert_refused(self, files, *messages):
        """The checker fails on `files` and prints every one of `messages`; returns its output."""
        code, out = self.run_check(files)
        self.assertEqual(code, 1, out)
        for message in messages:
            self.assertIn(message, out)
        return out


class CheckLayout(Trees, unittest.TestCase):
    def test_arrows_pointing_down_pass(self):
        code, out = self.run_check({
            "low/a.h": "#pragma once\n#include <vector>\n",
            "mid/b.cpp": '#include "mid/b.h"\n#include "low/a.h"\n',
            "mid/b.h": "#pragma once\n",
            "app/main.cpp": '#include "mid/b.h"\n#include "app/inner/c.h"\n',
            "app/inner/c.h": '#include "low/a.h"\n',
            "tests/t.cpp": '#include "app/main.cpp"\n',
        })
        self.assertEqual(code, 0, out)
        self.assertIn("every include follows the arrows", out)

    def test_an_arrow_pointing_up_is_reported_with_file_and_line(self):
        self.assert_refused({"low/a.h": "#pragma once\n", "mid/b.h": "#pragma once\n",
                             "low/bad.cpp": '// up the table\n#include <cmath>\n#include "mid/b.h"\n'},
                            'low/bad.cpp:3: low/ may not include "mid/b.h"')

    def test_the_longest_rule_wins(self):
        # app/ may include mid/, but its room app/inner/ may not.
        out = self.assert_refused({"mid/b.h": "#pragma once\n", "app/ok.cpp": '#include "mid/b.h"\n',
                                   "app/inner/c.cpp": '#include "mid/b.h"\n'},
                                  "app/inner/c.cpp:1: app/inner/ may not include")
        self.assertNotIn("app/ok.cpp", out)

    def test_mpi_is_named_only_where_it_may_be(self):
        out = self.assert_refused({"low/channel.cpp": "#include <mpi.h>\nMPI_Comm c;\n",
                                   "mid/b.cpp": "// no MPI here\nint x = MPI_SUM;\n",
                                   "tests/t.cpp": "MPI_Comm world;\n"},
                                  "mid/b.cpp:2: mid/ names MPI (MPI_SUM): only low/ may")
        self.assertNotIn("low/channel.cpp", out)
        self.assertNotIn("tests/t.cpp", out)

    def test_an_import_circle_in_tools_is_refused_naming_its_modules(self):
        # b imports a inside a function: still a circle (the launcher's subcommands did this).
        out = self.assert_refused({"tools/a.py": "import os\nfrom b import f\n",
                                   "tools/b.py": "def f():\n    from a import g\n",
                                   "tools/c.py": "import a, b\n"},
                                  "tools/a.py:0: an import circle: a -> b -> a")
        self.assertNotIn("c.py", out)

    def test_modules_importing_downward_pass(self):
        code, out = self.run_check({"tools/a.py": "from b import f\nimport c\n", "tools/b.py": "import c\n",
                                    "tools/c.py": "import json\n"})
        self.assertEqual(code, 0, out)

    def test_a_room_or_folder_without_a_rule_is_refused(self):
        self.assert_refused({"app/new_room/d.cpp": "int d;\n", "elsewhere/e.cpp": "int e;\n"},
                            "app/new_room/d.cpp:0: no rule", "elsewhere/e.cpp:0: no rule")


class CheckToolsRooms(Trees, unittest.TestCase):
    rules = ROOM_RULES

    def test_rooms_importing_down_their_arrows_pass(self):
        code, out = self.run_check({
            "tools/base/__init__.py": "",
            "tools/base/util.py": "import json\n",
            "tools/middle/__init__.py": "",
            "tools/middle/m.py": "from base.util import x\n",
            "tools/top/__init__.py": "",
            "tools/top/main.py": ("import os\nfrom middle import m\nimport base.util\n\n"
                                  "def f():\n    from top.other import g\n"),
            "tools/top/other.py": "from base.util import (x,\n                       y)\n",
        })
        self.assertEqual(code, 0, out)
        self.assertIn("its rooms import down their arrows (3 rules)", out)

    def test_an_import_up_the_arrows_is_reported_with_file_and_line(self):
        out = self.assert_refused({"tools/base/util.py": "import json\n\ndef f():\n    from middle.m import g\n",
                                   "tools/middle/m.py": "def g():\n    pass\n",
                                   "tools/top/main.py": "from middle.m import g\n"},
                                  "tools/base/util.py:4: tools/base/ may not import middle.m "
                                  "(it may import: tools/base/)")
        self.assertNotIn("tools/top/main.py", out)

    def test_an_import_circle_inside_a_room_is_refused_naming_its_modules(self):
        # The arrows allow a room to import itself: only the circle is wrong.
        self.assert_refused({"tools/top/a.py": "from top.b import f\n",
                             "tools/top/b.py": "def f():\n    from top import a\n"},
                            "tools/top/a.py:0: an import circle: top.a -> top.b -> top.a")

    def test_an_import_circle_across_rooms_is_refused_naming_its_modules(self):
        self.assert_refused({"tools/base/a.py": "def f():\n    from top.b import g\n",
                             "tools/top/b.py": "import base.a\n"},
                            "tools/base/a.py:0: an import circle: base.a -> top.b -> base.a",
                            "tools/base/a.py:2: tools/base/ may not import top.b")

    def test_a_module_of_a_room_imported_by_its_file_name_is_refused(self):
        self.assert_refused({"tools/base/util.py": "import json\n",
                             "tools/top/main.py": "import json\nfrom util import x\n"},
                            "tools/top/main.py:2: imports util by its file name: import it as base.util")

    def test_a_circle_through_a_flat_import_is_still_a_circle(self):
        self.assert_refused({"tools/top/a.py": "from b import f\n", "tools/top/b.py": "import a\n"},
                            "an import circle: top.a -> top.b -> top.a")

    def test_a_tools_module_outside_every_room_is_refused(self):
        self.assert_refused({"tools/base/util.py": "", "tools/loose.py": "import json\n", "tools/new_room/n.py": ""},
                            "tools/loose.py:0: no rule", "tools/new_room/n.py:0: no rule")


if __name__ == "__main__":
    unittest.main()
