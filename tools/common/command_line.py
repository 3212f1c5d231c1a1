"""The launcher's command lines after `run`, `plot`, `render` and `mobility TEST`
(tools/launcher/trackcosim.py): one positional word first (the run file, the run folder), then options
in any order. Every word is checked before anything starts: an option the launcher does not
know, or one without its value, is refused rather than skipped."""

import math

LAUNCHERS = ("mpirun", "srun", "hetjob", "tcp")
# The launchers a mobility series passes on to its points (a heterogeneous job is one point's).
MOBILITY_LAUNCHERS = ("mpirun", "srun", "tcp")
TRACKS = ("left", "right")

# Each subcommand's options and their defaults; a default of False marks a flag.
RUN_OPTIONS = {"--terrain-ranks": None, "--out": None, "--launcher": "mpirun", "--resume": None,
               "--grow-with-ranks": False, "--dry-run": False, "--no-plot": False, "--fresh-bed": False}
PLOT_OPTIONS = {"--out": None, "--track": "left", "--dpi": None}
RENDER_OPTIONS = {"--out": None, "--view": "both", "--color": "speed", "--every": "1", "--start": None, "--end": None,
                  "--size": "960x540", "--jobs": None, "--quality": "high", "--fps": None, "--slice": None,
                  "--no-movie": False, "--movie-only": False, "--spheres": False, "--keep-scenes": False,
                  "--no-overlay": False}
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


def check_tcp_layout(options, ranks, given_by):
    """--launcher tcp starts terrain_node as one plain process, with no MPI between terrain ranks:
    more terrain ranks are refused (given_by: where the count came from), and so is
    --grow-with-ranks, which grows the patch with them."""
    if options["--launcher"] != "tcp":
        return
    if ranks > 1:
        raise UsageError("--launcher tcp runs one terrain rank (no MPI between terrain ranks), not %d (%s); "
                         "pass --terrain-ranks 1" % (ranks, given_by))
    if options.get("--grow-with-ranks"):
        raise UsageError("--grow-with-ranks grows the terrain with its rank count, and --launcher tcp runs one "
                         "terrain rank: leave it out")


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
            options[option] = number(options[option], option, what="a time in seconds")
    width, _, height = options["--size"].partition("x")
    if not (width.isdigit() and height.isdigit() and 16 <= int(width) <= 16384 and 16 <= int(height) <= 16384):
        raise UsageError("--size: expected WxH in pixels (16 to 16384 each), got %r" % options["--size"])
    options["--size"] = (int(width), int(height))
    return folder, options


# `mobility TEST RUN_CONFIG`: the option that lists each test's points, and the options they share.
MOBILITY_TESTS = {"dbp": "--slips", "resistance": "--speeds", "grade": "--slopes", "obstacle": "--speed"}
MOBILITY_OPTIONS = {"--track-speed": None, "--phases": None, "--end-time": None, "--rigid": False, "--jobs": None,
                    "--terrain-ranks": None, "--launcher": "mpirun", "--out": None, "--point": None,
                    "--collect": False, "--dry-run": False}
# The range of each test's values, as the rig accepts them (cosim/drawbar_rig.h).
MOBILITY_RANGES = {"--slips": (-1.0, 1.0, "a slip in [-1, 1]"), "--speeds": (1e-9, 100.0, "a speed in m/s > 0"),
                   "--slopes": (-59.999, 59.999, "a slope in degrees, between -60 and 60"),
                   "--speed": (1e-9, 100.0, "a speed in m/s > 0")}


def number(text, option, low=-math.inf, high=math.inf, what="a number"):
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and low <= value <= high):  # NaN and infinities are no run's numbers
        raise UsageError("%s: expected %s, got %r" % (option, what, text))
    return value


def number_list(options, option):
    """options[option], 'a,b,c', as a list of distinct numbers in the option's range."""
    low, high, what = MOBILITY_RANGES[option]
    words = options[option].split(",")
    values = [number(w, option, low, high, what) for w in words]
    if len(set(values)) != len(values):
        raise UsageError("%s: a value is given twice in %r" % (option, options[option]))
    options[option] = values


def parse_mobility_command_line(args):
    """`mobility TEST RUN_CONFIG`: (test, CONFIG, options) with the test's values as a list of
    floats under options["values"], the times and speeds as floats, --point as an int >= 0."""
    if not args or args[0] not in MOBILITY_TESTS:
        raise UsageError("mobility needs a test first, one of %s; got %r" % (
            ", ".join(MOBILITY_TESTS), args[0] if args else "nothing"))
    test, value_option = args[0], MOBILITY_TESTS[args[0]]
    config, options = parse_options(args[1:], dict(MOBILITY_OPTIONS, **{value_option: None}),
                                    "mobility %s needs a run file (RUN_CONFIG)" % test)
    if options[value_option] is None:
        raise UsageError("mobility %s needs %s" % (test, value_option))
    number_list(options, value_option)
    if value_option == "--speed" and len(options[value_option]) != 1:
        raise UsageError("--speed: the obstacle test is one run at one speed, got %d" % len(options[value_option]))
    options["values"] = options.pop(value_option)
    for option in ("--jobs", "--terrain-ranks"):
        whole_number(options, option)
    one_of(options, "--launcher", MOBILITY_LAUNCHERS)
    for option, what in (("--track-speed", "a track speed in m/s > 0"), ("--end-time", "a time in s > 0")):
        if options[option] is not None:
            options[option] = number(options[option], option, 1e-9, math.inf, what)
    if options["--phases"] is not None:  # REST,RAMP,SETTLE: the rig's phases before the measurement
        words = options["--phases"].split(",")
        if len(words) != 3:
            raise UsageError("--phases: expected REST,RAMP,SETTLE (three times in s), got %r" % options["--phases"])
        options["--phases"] = [number(w, "--phases", 0.0, math.inf, "a time in s >= 0") for w in words]
    if options["--point"] is not None:
        point = options["--point"]
        if not point.isdigit() or int(point) >= len(options["values"]):
            raise UsageError("--point: expected a point index from 0 to %d, got %r" % (
                len(options["values"]) - 1, point))
        options["--point"] = int(point)
    if options["--point"] is not None and options["--collect"]:
        raise UsageError("--point runs one point and --collect runs none: give one of them")
    return test, config, options
