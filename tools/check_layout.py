#!/usr/bin/env python3
"""Checks that every #include "..." of our code follows the arrows of tools/layout_arrows.json
(docs/architecture.md, "Arrows"), and that no Python module of tools/ imports, through others, a
module that imports it: prints each include that a folder may not make, with file and line, and
each import circle, and exits 1; exits 0 and prints a one-line summary when the layout holds.

  tools/check_layout.py [--root DIR] [--rules FILE]

A file obeys the rule of the longest key that is a prefix of its path (`terrain_node/config`
before `terrain_node`); it may include its own folder and the listed prefixes. A source file in a
folder that no rule covers and that is not listed as unruled is an error too: a new folder must
say where it stands. With "mpi_only_in", an MPI name (MPI_..., <mpi.h>) anywhere else, comments
included, is an error: everything that touches MPI lives in comm/."""
import os
import re
import sys

from input_checks import OneLineParser, member, read_json, run_guarded

SOURCE_ENDINGS = (".h", ".hpp", ".cuh", ".c", ".cpp", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
MPI = re.compile(r'\bMPI_\w*|<mpi\.h>')


def load_rules(path):
    data = read_json(path, "a layout rules file")
    return member(data, ["rules"], path), data.get("unruled", []), data.get("mpi_only_in", [])


def governing_key(path, rules):
    """The longest rule key that is a folder prefix of `path`, or None."""
    best = None
    for key in rules:
        if path.startswith(key + "/") and (best is None or len(key) > len(best)):
            best = key
    return best


def uncovered_room(path, key, rules):
    """A file in a subfolder of a folder whose rooms have rules of their own, in a room that has
    none: a new room must say where it stands, not inherit its parent's wider rule."""
    rooms = any(other.startswith(key + "/") for other in rules)
    return rooms and "/" in path[len(key) + 1:]


def within(include, prefix):
    return include == prefix or include.startswith(prefix + "/")


def our_folders(rules):
    return {key.split("/")[0] for key in rules}


def violations(root, rules, unruled, mpi_only_in=()):
    """Yields (path, line number, message) for every include that breaks the arrows, and every
    MPI name outside the folders of `mpi_only_in`."""
    ours = our_folders(rules)
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root).replace(os.sep, "/")
        top = rel_folder.split("/")[0]
        if rel_folder != "." and (top.startswith(".") or top.startswith("build") or top in unruled):
            dirs[:] = []
            continue
        for name in sorted(files):
            if not name.endswith(SOURCE_ENDINGS):
                continue
            path = name if rel_folder == "." else rel_folder + "/" + name
            key = governing_key(path, rules)
            if key is None or uncovered_room(path, key, rules):
                yield path, 0, "no rule in tools/layout_arrows.json covers this folder"
                continue
            allowed = [key] + rules[key]
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                for number, text in enumerate(f, 1):
                    mpi = MPI.search(text)
                    if mpi_only_in and mpi and not any(within(path, folder) for folder in mpi_only_in):
                        yield path, number, "%s names MPI (%s): only %s may" % (
                            key + "/", mpi.group(0), ", ".join(f + "/" for f in mpi_only_in))
                    match = INCLUDE.match(text)
                    if not match:
                        continue
                    include = match.group(1)
                    if include.split("/")[0] not in ours:
                        continue  # a system or third-party header, or a sibling without a folder
                    if not any(within(include, prefix) for prefix in allowed):
                        yield path, number, '%s may not include "%s" (it may include: %s)' % (
                            key + "/", include, ", ".join(p + "/" for p in allowed))


PYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w., ]*))")


def python_imports(path, modules):
    """The modules of `modules` that the Python file at `path` imports, at its top or inside a function."""
    found = set()
    with open(path, encoding="utf-8", errors="replace") as f:
        for text in f:
            match = PYTHON_IMPORT.match(text)
            if match:
                names = [match.group(1)] if match.group(1) else match.group(2).split(",")
                found.update(name.strip().split(".")[0] for name in names)
    return found & set(modules)


def python_import_circles(root):
    """Yields (path, 0, message) for every circle among the Python modules of tools/ (a module
    that imports, through others, a module that imports it): each once, from its first module."""
    tools = os.path.join(root, "tools")
    modules = {}
    for folder, _, files in os.walk(tools):
        for name in files:
            if name.endswith(".py"):
                modules[name[:-3]] = os.path.join(folder, name)
    imports = {m: python_imports(path, modules) - {m} for m, path in modules.items()}

    def walk(chain):
        for other in sorted(imports[chain[-1]]):
            if other == chain[0]:
                yield chain + [other]
            elif other > chain[0] and other not in chain:
                yield from walk(chain + [other])

    for module in sorted(modules):
        for circle in walk([module]):
            path = os.path.relpath(modules[module], root).replace(os.sep, "/")
            yield path, 0, "an import circle: " + " -> ".join(circle)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(here))
    parser.add_argument("--rules", default=os.path.join(here, "layout_arrows.json"))
    args = parser.parse_args(argv)
    rules, unruled, mpi_only_in = load_rules(args.rules)
    found = list(violations(args.root, rules, unruled, mpi_only_in)) + list(python_import_circles(args.root))
    for path, line, message in found:
        print("%s:%d: %s" % (path, line, message))
    if found:
        print("layout: %d include(s) break the arrows of %s, or import circles in tools/" % (len(found), args.rules),
              file=sys.stderr)
        return 1
    print("layout: every include follows the arrows (%d rules); tools/ imports no module in a circle" % len(rules))
    return 0


if __name__ == "__main__":
    sys.exit(run_guarded("check_layout", lambda argv: main(argv[1:]), sys.argv))
