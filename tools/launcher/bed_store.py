"""The settled-bed store of `trackcosim run` (docs/settling.md, "Settle once").

A co-simulation's terrain first settles for cosim.settle_time: on a heavy vehicle's 10^5 grains
that is most of the run's start-up. The bed that comes out depends only on the terrain config
(and the files it names), so it is settled once and kept: the first run of a terrain writes its
settled bed here (terrain_node --save-bed), and every later run of the same terrain starts from
it (--from-checkpoint), on any rank count.

A bed is found by a key: the SHA-256 of the terrain config's content with the keys that cannot
change the settled bed left out (output, end_time, the standalone settle criterion, domain (how
the bed is split over ranks), and every cosim key but settle_time, settle_step and compaction; with a compaction, output's
packing_margin and heightmap_spacing stay in), plus the content of every file the config names (a heightmap image,
a mesh). A changed config, or a changed image under the same name, gets another key and is
settled again; a comment or a changed coupling setting is not.

Layout: STORE/<config stem>-<key 16>/bed.bin (the checkpoint) and bed.json (what made it). A
config copied or renamed keeps its content, so it finds the bed another name stored under the
same key (its bed.json holding the whole key) and starts from it.
STORE is TRACKCOSIM_BED_STORE, default output/beds; TRACKCOSIM_BED_STORE=off turns the store off
(the test suite does, so that no bed crosses from one test to the next)."""
import datetime
import hashlib
import json
import os

from common.input_checks import strip_comments

# Raised when the meaning of a stored bed changes (its checkpoint format, the settle loop).
# 2: checkpoint format version 3 keeps the rolling impulses; a version 2 bed would start a run
# with rolling resistance from zero rolling impulses, not the self-settled run's bits.
BED_FORMAT = 2
# The top-level keys that cannot change the settled bed. `domain` only splits it over ranks, as
# the rank count does, which the store also leaves to each run.
NOT_THE_BED = ("output", "end_time", "settle", "domain")
# Of `cosim`, only the bed's preparation makes the bed: the settling's time and step, and the
# compaction to a packing that follows it.
COSIM_BED_KEYS = ("settle_time", "settle_step", "compaction")
# Of `output`, what the compaction's packing is measured with.
COMPACTION_OUTPUT_KEYS = ("packing_margin", "heightmap_spacing")


def store_folder():
    """The store's folder, or None when TRACKCOSIM_BED_STORE=off (every run settles its own bed)."""
    chosen = os.environ.get("TRACKCOSIM_BED_STORE")
    if chosen == "off":
        return None
    return chosen or os.path.join("output", "beds")


def _named_files(value, config_dir):
    """Every string in the config that names an existing file (as the config's folder or the
    current folder resolves it), in order of appearance."""
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _named_files(value[key], config_dir)
    elif isinstance(value, list):
        for item in value:
            yield from _named_files(item, config_dir)
    elif isinstance(value, str):
        for candidate in (os.path.join(config_dir, value), value):
            if os.path.isfile(candidate):
                yield value, candidate
                break


def bed_content(terrain_config):
    """The part of a terrain config that makes its settled bed, as a dict (raises OSError,
    ValueError for an unreadable config: the caller lets terrain_node say what is wrong)."""
    with open(terrain_config) as f:
        config = json.loads(strip_comments(f.read()))
    if not isinstance(config, dict):
        raise ValueError("%s: not a JSON object" % terrain_config)
    content = {key: value for key, value in config.items() if key not in NOT_THE_BED}
    cosim = config.get("cosim")
    if isinstance(cosim, dict):
        content["cosim"] = {key: cosim[key] for key in COSIM_BED_KEYS if key in cosim}
        output = config.get("output")
        if "compaction" in cosim and isinstance(output, dict):
            # The compaction measures the packing in the sample box these two make.
            measured = {key: output[key] for key in COMPACTION_OUTPUT_KEYS if key in output}
            if measured:
                content["output"] = measured
    return content


def bed_key(terrain_config):
    """The key of a terrain config's settled bed: 64 hex digits."""
    content = bed_content(terrain_config)
    digest = hashlib.sha256()
    digest.update(("trackcosim bed %d\n" % BED_FORMAT).encode())
    digest.update(json.dumps(content, sort_keys=True, separators=(",", ":")).encode())
    for name, path in _named_files(content, os.path.dirname(os.path.abspath(terrain_config))):
        digest.update(("\nfile %s\n" % name).encode())
        with open(path, "rb") as f:
            digest.update(hashlib.sha256(f.read()).digest())
    return digest.hexdigest()


def settles(terrain_config):
    """Whether a co-simulation on this terrain prepares a bed at all (cosim.settle_time > 0, or a
    cosim.compaction)."""
    cosim = bed_content(terrain_config).get("cosim", {})
    settle_time = cosim.get("settle_time", 0)
    if "compaction" in cosim:
        return True
    return isinstance(settle_time, (int, float)) and not isinstance(settle_time, bool) and settle_time > 0


class StoredBed:
    """Where a terrain config's settled bed is (or will be) kept."""

    def __init__(self, terrain_config, store=None):
        self.config = terrain_config
        self.key = bed_key(terrain_config)
        stem = os.path.splitext(os.path.basename(terrain_config))[0]
        store = store or store_folder()
        self._place(os.path.join(store, "%s-%s" % (stem, self.key[:16])))
        if not self.exists():
            twin = self._same_content_under_another_name(store)
            if twin:
                self._place(twin)

    def _place(self, folder):
        self.folder = folder
        self.checkpoint = os.path.join(folder, "bed.bin")
        self.record = os.path.join(folder, "bed.json")

    def _same_content_under_another_name(self, store):
        """The folder of a bed stored for another config name with this whole key, or None."""
        try:
            names = sorted(os.listdir(store))
        except OSError:
            return None
        for name in names:
            folder = os.path.join(store, name)
            if name.endswith("-" + self.key[:16]) and os.path.isfile(os.path.join(folder, "bed.bin")):
                try:
                    with open(os.path.join(folder, "bed.json")) as f:
                        if json.load(f).get("key") == self.key:
                            return folder
                except (OSError, ValueError, AttributeError):
                    continue
        return None

    def exists(self):
        return os.path.isfile(self.checkpoint)

    def made_when(self):
        """The bed's record (bed.json) as a dict, or {} when it has none."""
        try:
            with open(self.record) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def write_record(self, run_folder, ranks):
        """bed.json beside a bed a run has just saved: the key, the config, who made it, when."""
        record = {"key": self.key, "format": BED_FORMAT, "terrain_config": self.config,
                  "content": bed_content(self.config), "made_by_run": run_folder, "terrain_ranks": ranks,
                  "made": datetime.datetime.fromtimestamp(os.path.getmtime(self.checkpoint)).isoformat(timespec="seconds"),
                  "bytes": os.path.getsize(self.checkpoint)}
        temporary = self.record + ".tmp"
        with open(temporary, "w") as f:
            json.dump(record, f, indent=2)
        os.replace(temporary, self.record)
