"""The terrain config a run uses when the launcher changes the user's: RUN_DIR/terrain_config.json.

Two options of `trackcosim run` change it (tools/launcher/trackcosim.py): --grow-with-ranks
stretches the patch with the rank count (tools/launcher/terrain_grow.py), and --launcher tcp
couples the programs over TCP instead of MPI: cosim.transport "tcp" on 127.0.0.1, port 0, so
that the system picks a free port, which terrain_node prints (docs/protocol.md, "Starting over
TCP"). The other cosim keys (coupling_step, settle_time, timeout) stay the user's.

The copy is read from another folder than the user's config, so the files that config names
relative to its own folder are made absolute (tools/common/terrain_files.py). The launcher looks
up the settled bed by the user's config, not by this copy (tools/launcher/bed_store.py keys a bed by
the content that makes it, with the names of the files it reads)."""
import json
import os

from common.input_checks import InputError, read_json
from common.terrain_files import anchored
from launcher.terrain_grow import grow_terrain_config

RUN_TERRAIN_CONFIG = "terrain_config.json"
# Where terrain_node serves a --launcher tcp run: this host only; port 0 lets the system choose.
TCP_HOST = "127.0.0.1"
TCP_COUPLING = {"transport": "tcp", "host": TCP_HOST, "port": 0}


def write_run_terrain_config(terrain_config, folder, grow_factor=None, over_tcp=False):
    """terrain_config grown by grow_factor (None: not grown) and, with over_tcp, coupled over TCP,
    written to folder; returns its path. The user's config is read before the copy is written,
    so a config that already is folder's copy (a mobility point's) is changed in place."""
    config = read_json(terrain_config, "a terrain config", comments=True)
    if not isinstance(config, dict):
        raise InputError("%s: not a terrain config: expected a JSON object" % terrain_config)
    config = anchored(config, os.path.dirname(os.path.abspath(terrain_config)))
    if grow_factor is not None:
        grow_terrain_config(config, grow_factor)
    if over_tcp:
        cosim = config.setdefault("cosim", {})
        if isinstance(cosim, dict):  # else terrain_node refuses it, naming the key
            cosim.update(TCP_COUPLING)
    path = os.path.join(folder, RUN_TERRAIN_CONFIG)
    with open(path, "w") as f:
        json.dump(config, f, indent=2)
    return path
