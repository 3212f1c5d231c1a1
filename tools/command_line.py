"""The launcher's command line after `run` (tools/trackcosim.py): CONFIG, then options in any
order. Every word is checked before anything starts: an option the launcher does not know, or
one without its value, is refused rather than skipped."""

VALUE_OPTIONS = ("--terrain-ranks", "--out", "--launcher", "--resume")
FLAG_OPTIONS = ("--grow-with-ranks", "--dry-run")
LAUNCHERS = ("mpirun", "srun", "hetjob")


class UsageError(Exception):
    """A command line the launcher refuses; the launcher adds the usage line."""


def parse_command_line(args):
    """(CONFIG, {option: value}) with flags as booleans and --terrain-ranks as an int (or None)."""
    if not args or args[0].startswith("-"):
        raise UsageError("run needs a run file (CONFIG) first")
    options = {"--terrain-ranks": None, "--out": None, "--launcher": "mpirun", "--resume": None,
               "--grow-with-ranks": False, "--dry-run": False}
    rest = list(args[1:])
    while rest:
        word = rest.pop(0)
        if word in FLAG_OPTIONS:
            options[word] = True
        elif word in VALUE_OPTIONS:
            if not rest or rest[0].startswith("--"):
                raise UsageError("%s needs a value" % word)
            options[word] = rest.pop(0)
        else:
            raise UsageError("unknown argument %r (expected one of: %s)" % (
                word, ", ".join(VALUE_OPTIONS + FLAG_OPTIONS)))
    ranks = options["--terrain-ranks"]
    if ranks is not None:
        if not ranks.isdigit() or int(ranks) < 1:
            raise UsageError("--terrain-ranks: expected a whole number of ranks >= 1, got %r" % ranks)
        options["--terrain-ranks"] = int(ranks)
    if options["--launcher"] not in LAUNCHERS:
        raise UsageError("--launcher must be one of %s, got %r" % (", ".join(LAUNCHERS), options["--launcher"]))
    return args[0], options
