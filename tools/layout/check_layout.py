#!/usr/bin/env python3
"""Checks that every #include "..." of our code follows the arrows of tools/layout/layout_arrows.json
(docs/architecture.md, "Arrows"), that no Python module of tools/ imports, through others, a
module that imports it, and that the rooms of tools/ import down their own arrows: prints each
include or import that a folder may not make, with file and line, and each import circle, and
exits 1; exits 0 and prints a one-line summary when the layout holds.

  tools/layout/check_layout.py [--root DIR] [--rules FILE]

A file obeys the rule of the longest key that is a prefix of its path (`terrain_node/config`
before `terrain_node`); it may include its own folder and the listed prefixes. A source file in a
folder that no rule covers and that is not listed as unruled is an error too: a new folder must
say where it stands. With "mpi_only_in", an MPI name (MPI_..., <mpi.h>) anywhere else, comments
included, is an error: everything that touches MPI lives in comm/.

The Python modules of tools/ are found in all its sub-folders (its rooms) and named as they are
imported with tools/ on the path: `common.input_checks`, or `a` for tools/a.py. Imports are read
from the parsed module, at its top or inside a function. "python_rules" are the rooms' arrows, in
the form of "rules" (`"tools/plots": ["tools/common"]`): with them, every module of tools/ must
be in a room that a rule covers. A room's module imported by its file name alone is an error
whatever the rules: a script run from its room's folder would load a second copy of it."""
import ast
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/, the import root
from common.input_checks import OneLineParser, member, read_json, run_guarded  # noqa: E402

SOURCE_ENDINGS = (".h", ".hpp", ".cuh", ".c", ".cpp", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
MPI = re.compile(r'\bMPI_\w*|<mpi\.h>')


def load_rules(path):
    data = read_json(path, "a layout rules file")
    return (member(data, ["rules"], path), data.get("unruled", []), data.get("mpi_only_in", []),
            data.get("python_rules", {}))


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
                yield path, 0, "no rule in tools/layout/layout_arrows.json covers this folder"
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


def python_modules(tools):
    """{name: path} of the Python modules under tools/: a module of a room (a sub-folder) by its
    dotted name, `common.input_checks`, a room's __init__.py by the room's name, one at the top
    by its file name."""
    modules = {}
    for folder, dirs, files in os.walk(tools):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        rel = os.path.relpath(folder, tools)
        package = [] if rel == "." else rel.split(os.sep)
        for name in files:
            if name.endswith(".py"):
                parts = package + ([] if name == "__init__.py" else [name[:-3]])
                if parts:
                    modules[".".join(parts)] = os.path.join(folder, name)
    return modules


def imported_names(tree, package):
    """(dotted name, line) of every import in a parsed module, at its top or inside a function;
    `from X import a` gives X.a, which is a module when `a` is one; `package` resolves relative ones."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) + 1 - node.level] + ([base] if base else []))
            for alias in node.names:
                yield (base + "." + alias.name if base else alias.name), node.lineno


def resolve(name, modules, by_file_name):
    """The module of tools/ that the dotted import `name` loads (its longest prefix that is one),
    with True when it names a room's module by its file name alone; (None, False) for others."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end]), False
    if parts[0] in by_file_name:
        return by_file_name[parts[0]], True
    return None, False


def python_imports(tools):
    """{module: [(imported module, line, imported by its file name alone)]} over the modules of tools/."""
    modules = python_modules(tools)
    by_file_name = {m.split(".")[-1]: m for m in modules if "." in m}
    imports = {}
    for module, path in modules.items():
        with open(path, encoding="utf-8", errors="replace") as f:
            tree = ast.parse(f.read(), path)
        package = module.split(".")[:-1] if not path.endswith("__init__.py") else module.split(".")
        found = []
        for name, line in imported_names(tree, package):
            other, flat = resolve(name, modules, by_file_name)
            if other is not None and other != module:
                found.append((other, line, flat))
        imports[module] = found
    return modules, imports


def python_import_circles(root, modules, imports):
    """Yields (path, 0, message) for every circle among the Python modules of tools/ (a module
    that imports, through others, a module that imports it): each once, from its first module."""
    arrows = {m: {other for other, _, _ in found} for m, found in imports.items()}

    def walk(chain):
        for other in sorted(arrows[chain[-1]]):
            if other == chain[0]:
                yield chain + [other]
            elif other > chain[0] and other not in chain:
                yield from walk(chain + [other])

    for module in sorted(modules):
        for circle in walk([module]):
            yield relative(modules[module], root), 0, "an import circle: " + " -> ".join(circle)


def python_arrows(root, modules, imports, python_rules):
    """Yields (path, line, message) for every import of one module of tools/ by another that its
    room may not make (`python_rules`: the rooms' rules, read as the C++ ones), for a module in a
    folder that no rule covers, and for a room's module imported by its file name alone (a script
    run from its room's folder would load a second copy of it under that name)."""
    for module in sorted(modules):
        path = relative(modules[module], root)
        key = governing_key(path, python_rules) if python_rules else None
        if python_rules and (key is None or uncovered_room(path, key, python_rules)):
            yield path, 0, "no rule in python_rules of tools/layout/layout_arrows.json covers this folder"
            continue
        for other, line, flat in sorted(imports[module], key=lambda i: i[1]):
            if flat:
                yield path, line, "imports %s by its file name: import it as %s" % (other.split(".")[-1], other)
            if key is None:
                continue
            allowed = [key] + python_rules[key]
            other_path = relative(modules[other], root)
            if not any(other_path.startswith(prefix + "/") for prefix in allowed):
                yield path, line, "%s may not import %s (it may import: %s)" % (
                    key + "/", other, ", ".join(p + "/" for p in allowed))


def relative(path, root):
    return os.path.relpath(path, root).replace(os.sep, "/")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
    parser.add_argument("--rules", default=os.path.join(here, "layout_arrows.json"))
    args = parser.parse_args(argv)
    rules, unruled, mpi_only_in, python_rules = load_rules(args.rules)
    modules, imports = python_imports(os.path.join(args.root, "tools"))
    found = (list(violations(args.root, rules, unruled, mpi_only_in)) +
             list(python_import_circles(args.root, modules, imports)) +
             list(python_arrows(args.root, modules, imports, python_rules)))
    for path, line, message in found:
        print("%s:%d: %s" % (path, line, message))
    if found:
        print("layout: %d include(s) or import(s) of tools/ break the arrows of %s, or close an import circle"
              % (len(found), args.rules), file=sys.stderr)
        return 1
    print("layout: every include follows the arrows (%d rules); tools/ imports no module in a circle%s" % (
        len(rules), ", and its rooms import down their arrows (%d rules)" % len(python_rules) if python_rules else ""))
    return 0


if __name__ == "__main__":
    sys.exit(run_guarded("check_layout", lambda argv: main(argv[1:]), sys.argv))
