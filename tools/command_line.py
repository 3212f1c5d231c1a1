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
RENDER_OPTIONS = {"--out": None, "--view": "both", "--color": "speed", "--every": "1", "--start": None, "--end": None,
                  "--size": "960x540", "--jobs": None, "--quality": "high", "--fps": None, "--slice": None,
                  "--no-movie": False, "--movie-only": False, "--spheres": False, "--keep-scenes": False}
RENDER_CHOICES = {"--view": ("chase", "side", "both"), "--color": ("speed", "height"), "--quality": ("low", "high")}


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


def one_of(options, option, choices):
    """Refuses options[option] unless it is one of `choices`."""
    if options[option] not in choices:
        raise UsageError("%s must be one of %s, got %r" % (option, ", ".join(choices), options[option]))


def parse_command_line(args):
    """`run`: (CONFIG, options) with flags as booleans and --terrain-ranks as an int (or None)."""
    config, options = parse_options(args, RUN_OPTIONS, "run needs a run file (CONFIG)")
    whole_number(options, "--terrain-ranks")
    one_of(options, "--launcher", LAUNCHERS)
    return config, options


def parse_plot_command_line(args):
    """`plot`: (RUN_DIR, options) with --dpi as an int (or None: the figures' own)."""
    folder, options = parse_options(args, PLOT_OPTIONS, "plot needs a run folder (RUN_DIR)")
    whole_number(options, "--dpi")
    one_of(options, "--track", TRACKS)
    return folder, options


def parse_render_command_line(args):
    """`render`: (RUN_DIR, options) with --every, --jobs, --fps as ints, --start and --end as
    floats (or None) and --size as (width, height)."""
    folder, options = parse_options(args, RENDER_OPTIONS, "render needs a run folder (RUN_DIR)")
    for option in ("--every", "--jobs", "--fps"):
        whole_number(options, option)
    for option, choices in RENDER_CHOICES.items():
        one_of(options, option, choices)
    for option in ("--start", "--end"):
        if options[option] is not None:
            try:
                options[option] = float(options[option])
            except ValueError:
                raise UsageError("%s: expected a time in seconds, got %r" % (option, options[option])) from None
    width, _, height = options["--size"].partition("x")
    if not (width.isdigit() and height.isdigit() and 16 <= int(width) <= 16384 and 16 <= int(height) <= 16384):
        raise UsageError("--size: expected WxH in pixels (16 to 16384 each), got %r" % options["--size"])
    options["--size"] = (int(width), int(height))
    return folder, options
