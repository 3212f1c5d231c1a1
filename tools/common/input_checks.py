"""What the Python tools read from a user (JSON files, CSV files, numbers), read so that bad input
is refused before it is half used: one line naming the file and the key, or the file, the line
and the column, and exit status 2. The C++ programs keep the same promise (io/json_fields.cpp);
docs/exit-status.md gives the convention both follow.

A number is refused when it is not finite wherever it is read: a NaN passes every `<` and `>`
check unnoticed and comes out as a figure of nan, or as `null` in a JSON file, far from its cause.
The one exception is a column whose writer means "undefined" by nan (rig.csv's slip while the
track stands): the reader names such columns."""
import argparse
import csv
import io
import json
import math
import os
import sys
import traceback

# The exit status of every program and tool (docs/exit-status.md; comm::kExitPeerLost in C++).
EXIT_OK = 0
EXIT_RUN_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_PEER_LOST = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program ended by Ctrl-C
EXIT_OUTPUT_CLOSED = 141  # 128 + SIGPIPE, as a shell reports `yes | head`


class InputError(ValueError):
    """Input a tool refuses; the message names the file and the key, or the file, line and column."""


def describe(value):
    """A JSON value as the programs name it in their errors: 'an array of 2 elements', 'a string'."""
    if isinstance(value, list):
        return "an array of %d elements" % len(value)
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "the number %r" % value
    if isinstance(value, str):
        return "the string " + json.dumps(value)
    return "an object" if isinstance(value, dict) else "null"


def finite_number(value, where, text=False):
    """value, a JSON number (text: or a number written as text, a CSV cell or an option) as a
    float; InputError naming `where` for anything else, NaN and the infinities included (json.load
    reads NaN and Infinity without a word)."""
    number = math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, str) and text:
        try:
            number = float(value)
        except ValueError:
            pass
    if not math.isfinite(number):
        shown = repr(value) if text and isinstance(value, str) else describe(value)
        raise InputError("%s: expected a finite number, got %s" % (where, shown))
    return number


def finite_float(text):
    """argparse's type for a number option: NaN and infinities refused as argparse refuses 'abc'
    (exit status 2 with the option's name)."""
    try:
        return finite_number(text, "", text=True)
    except InputError:
        raise argparse.ArgumentTypeError("expected a finite number, got %r" % text) from None


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose command-line errors are one line (not the usage block) and exit status 2."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, "%s: error: %s (--help tells more)\n" % (self.prog, message))


def read_text(path, what, keep_binary=False):
    """The file's text; InputError naming the file when it cannot be read or is not text.
    keep_binary: bytes that are not text come through as the characters binary_byte finds, for
    the caller to name where they are (read_csv: the line and the column)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InputError("%s: cannot read %s: %s" % (path, what, e.strerror or e)) from None
    if keep_binary:
        return data.decode("utf-8", errors="surrogateescape")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError("%s: line %d: not %s (byte 0x%02x is not text)" % (
            path, data[:e.start].count(b"\n") + 1, what, data[e.start])) from None
    if "\0" in text:
        raise InputError("%s: line %d: not %s (a NUL byte: a binary file?)" % (
            path, text[:text.index("\0")].count("\n") + 1, what))
    return text


def binary_byte(text):
    """The first byte of text (read with keep_binary) that is not text, as an int, or None."""
    for c in text:
        if c == "\0" or "\udc80" <= c <= "\udcff":
            return ord(c) & 0xff
    return None


def strip_comments(text):
    """JSON with // comments (outside strings) -> plain JSON."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def read_json(path, what="a JSON file", comments=False):
    """The JSON document at path (comments: with // comments, as the configs have them)."""
    text = read_text(path, what)
    if comments:
        text = strip_comments(text)
    try:
        return json.loads(text)
    except ValueError as e:  # says the line and the column
        raise InputError("%s: not %s: %s" % (path, what, e)) from None


def member(document, keys, source):
    """document[keys[0]][keys[1]]...; InputError "source: a.b: required key is missing" (or "expected
    an object") at the first key that is not there."""
    value = document
    for depth, key in enumerate(keys):
        where = ".".join(str(k) for k in keys[:depth + 1])
        if not isinstance(value, dict):
            raise InputError("%s: %s: expected an object, got %s" % (
                source, ".".join(keys[:depth]) or "the document", describe(value)))
        if key not in value:
            raise InputError("%s: %s: required key is missing" % (source, where))
        value = value[key]
    return value


def number_member(document, keys, source):
    return finite_number(member(document, keys, source), "%s: %s" % (source, ".".join(keys)))


def number_list_member(document, keys, source):
    """A list of finite numbers, each refused by its index: `source: a.torques[2]: ...`."""
    values = member(document, keys, source)
    where = "%s: %s" % (source, ".".join(keys))
    if not isinstance(values, list):
        raise InputError("%s: expected an array of numbers, got %s" % (where, describe(values)))
    return [finite_number(v, "%s[%d]" % (where, i)) for i, v in enumerate(values)]


class CsvTable:
    """A CSV file's checked rows: dicts of text, as csv.DictReader gives them, every cell of a
    number column a finite number (or blank, where blanks are allowed), and each row's line."""

    def __init__(self, path, fieldnames, rows, lines):
        self.path, self.fieldnames, self.rows, self.lines = path, fieldnames, rows, lines

    def __contains__(self, name):
        return name in self.fieldnames

    def numbers(self, name, blank=math.nan):
        """The column as floats (a blank cell as `blank`)."""
        return [float(r[name]) if r[name] != "" else blank for r in self.rows]


def read_csv(path, required=(), texts=(), nan_columns=(), blanks=False, torn_end=False, what="a CSV file"):
    """The CSV file at path as a CsvTable, or InputError naming the file and, for a bad cell, its
    line and column: a file that is not text, a required column missing, a row with more or fewer
    fields than the header, a cell of a number column that is not a finite number (texts: the
    columns that hold words; nan_columns: those whose writer means "undefined" by nan; blanks:
    empty cells allowed, read as nan). torn_end: a last row without its newline (a run killed or
    still writing) is left out rather than refused."""
    text = read_text(path, what, keep_binary=True)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        if header is None:
            raise InputError("%s: empty file: not %s (no header)" % (path, what))
        if binary_byte("".join(header)) is not None:
            raise InputError("%s: line 1: not %s (byte 0x%02x of its header is not text: a binary file?)" % (
                path, what, binary_byte("".join(header))))
        missing = [c for c in required if c not in header]
        if missing:
            raise InputError("%s: no column %s: not %s" % (path, ", ".join(missing), what))
        records = [(reader.line_num, record) for record in reader if record]
    except csv.Error as e:
        raise InputError("%s: line %d: not %s (%s)" % (path, reader.line_num, what, e)) from None
    if torn_end and records and not text.endswith("\n"):
        records.pop()
    rows, lines = [], []
    for line, record in records:
        if len(record) != len(header):
            raise InputError("%s: line %d: %d fields, the header has %d (a row cut short or run together)" % (
                path, line, len(record), len(header)))
        row = dict(zip(header, record))
        for column, cell in row.items():
            if binary_byte(cell) is not None:
                raise InputError("%s: line %d, column %s: byte 0x%02x is not text (a binary file, or one written "
                                 "over?)" % (path, line, column, binary_byte(cell)))
            if column not in texts:
                check_cell(cell, path, line, column, nan_columns, blanks)
        rows.append(row)
        lines.append(line)
    return CsvTable(path, header, rows, lines)


def check_cell(cell, path, line, column, nan_columns, blanks):
    if (cell == "" and blanks) or (column in nan_columns and cell.lstrip("+-").lower() == "nan"):
        return
    finite_number(cell, "%s: line %d, column %s" % (path, line, column), text=True)


def run_guarded(program, main, argv):
    """main(argv) with the exit-status convention and no traceback for a user: InputError (and an
    OSError or ValueError from below) is one `program: error:` line and exit status 2; standard
    output closed by its reader ends quietly with 141; anything
    else is a bug of the tool, said in one line with where it happened, exit status 1. --debug
    (anywhere on the command line) or TRACKCOSIM_DEBUG=1 shows the traceback as well."""
    debug = "--debug" in argv[1:] or bool(os.environ.get("TRACKCOSIM_DEBUG"))
    argv = argv[:1] + [word for word in argv[1:] if word != "--debug"]
    try:
        return main(argv)
    except KeyboardInterrupt:
        print("%s: interrupted" % program, file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of standard output has gone (`trackcosim --help | head`): nothing to say, and
        # nothing more may reach the closed pipe when Python flushes at exit.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass  # not a file descriptor (a test's captured output)
        return EXIT_OUTPUT_CLOSED
    except (InputError, OSError, ValueError) as e:
        if debug:
            traceback.print_exc()
        message = str(e).strip() or type(e).__name__
        print("%s: error: %s" % (program, message.replace("\n", " ")), file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        if debug:
            traceback.print_exc()
        frame = traceback.extract_tb(e.__traceback__)[-1]
        print("%s: internal error: %s: %s (at %s:%d); please report it with the command line and its input "
              "files (--debug shows the traceback)" % (program, type(e).__name__, e,
                                                       os.path.basename(frame.filename), frame.lineno),
              file=sys.stderr)
        return EXIT_RUN_FAILED
