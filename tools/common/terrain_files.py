"""The files a terrain config names, kept found by a copy of the config written elsewhere.

terrain_node reads a config's relative file names from the config's own folder
(docs/terrain-config.md: a heightmap's, grid's or surface's "file", a body shape's "mesh" and
"spheres_file"). The launcher and the mobility tests write changed copies of a terrain config
into run folders (a grown patch, a coupling over TCP, a tilted gravity: tools/launcher/run_terrain_config.py,
tools/mobility/mobility_plan.py); anchored() makes those names absolute, so that the copy reads
the same files as the config it came from."""
import os


def names_a_file(key):
    """Whether a terrain config's key holds a file name (terrain_node/config: "file", "mesh", "*_file")."""
    return key in ("file", "mesh") or key.endswith("_file")


def anchored(node, folder):
    """node (a parsed terrain config or a part of it) with every relative file name joined to folder."""
    if isinstance(node, dict):
        return {key: os.path.abspath(os.path.join(folder, value))
                if names_a_file(key) and isinstance(value, str) and value and not os.path.isabs(value)
                else anchored(value, folder) for key, value in node.items()}
    if isinstance(node, list):
        return [anchored(value, folder) for value in node]
    return node
