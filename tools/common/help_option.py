"""`--help` or `-h` for the Python tools and bench scripts that read their own command line: the
module's text and exit status 0, before anything is read or run."""
import sys

HELP_OPTIONS = ("--help", "-h")


def exit_on_help(argv, text):
    """Prints `text` and exits 0 when argv[1:] holds --help or -h; else returns."""
    if any(a in HELP_OPTIONS for a in argv[1:]):
        print(text.strip())
        sys.exit(0)
