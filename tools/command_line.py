"""The launcher's command lines after `run` and `plot` (tools/trackcosim.py): one positional
word first (the run file, the run folder), then options in any order. Every word is checked
before anything starts: an option the launcher does not know, or one without its value, is
refused rather than skipped."""

LAUNCHERS = ("mpirun", "srun", "hetjob")
TRACKS = ("left", "right")

# Each subcommand's options and their defaults; a default of False marks a flag.
RUN_OPTIONS = {"--terrain-ranks": None, "--out": None, "--launcher": "mpirun", "--resume": None,
               "--grow-with-ranks": False, "--dry-run": False, "--no-plot": False}
PLOT_OPTIONS = {"--out": None, "--track": "left", "--dpi": None}


class UsageError(Exception):
    """A command line the launcher refuses; the launcher adds the usage line."""


def parse_options(args, defaults, first):
    """(first word, {option: value}): flags (default False) become True, the others take the next
    word as text. first names the positional word in the error when it is missing."""
    if not args or args[0].startswith("-"):
        raise UsageError("%s first" % first)
    options = dict(defaults)
    rest = list(args[1:])
    while rest:
        word = rest.pop(0)
        if defaults.get(word, None) is False:
            options[word] = True
        elif word in defaults:
            if not rest or rest[0].startswith("--"):
                raise UsageError("%s needs a value" % word)
            options[word] = rest.pop(0)
        else:
            raise UsageError("unknown argument %r (expected one of: %s)" % (word, ", ".join(defaults)))
    return args[0], options


def whole_number(options, option):
    """options[option] as an int >= 1 (None stays None)."""
    value = options[option]
    if value is not None:
        if not value.isdigit() or int(value) < 1:
            raise UsageError("%s: expected a whole number >= 1, got %r" % (option, value))
        options[option] = int(value)


def parse_command_line(args):
    """`run`: (CONFIG, options) with flags as booleans and --terrain-ranks as an int (or None)."""
    config, options = parse_options(args, RUN_OPTIONS, "run needs a run file (CONFIG)")
    whole_number(options, "--terrain-ranks")
    if options["--launcher"] not in LAUNCHERS:
        raise UsageError("--launcher must be one of %s, got %r" % (", ".join(LAUNCHERS), options["--launcher"]))
    return config, options


def parse_plot_command_line(args):
    """`plot`: (RUN_DIR, options) with --dpi as an int (or None: the figures' own)."""
    folder, options = parse_options(args, PLOT_OPTIONS, "plot needs a run folder (RUN_DIR)")
    whole_number(options, "--dpi")
    if options["--track"] not in TRACKS:
        raise UsageError("--track must be one of %s, got %r" % (", ".join(TRACKS), options["--track"]))
    return folder, options
