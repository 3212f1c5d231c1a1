"""The programs' parseable lines ("vehicle cosim steps=...", "terrain stopped step=...", the port
terrain_node listens on over TCP) as the launcher reads them from the programs' merged stdout and stderr, where a fragment of another
message may precede one."""
import re


def key_values(prefix, line):
    """The key=value pairs from `prefix key=...` on in line, or None when line holds no such line:
    words of an error message ("the vehicle stopped: ...") are not one."""
    found = re.search(re.escape(prefix) + r" \w+=", line)
    return dict(re.findall(r"(\w+)=([^ ]+)", line[found.start():])) if found else None


def is_last_line(program, line):
    """True for the program's summary line or its stop line, the last it prints."""
    return key_values(program + " cosim", line) is not None or key_values(program + " stopped", line) is not None


def listening_port(line):
    """The port of terrain_node's `cosim      listening on HOST:PORT for the vehicle` line (a
    --cosim run over TCP, terrain_node/coupling/cosim_command.cpp), or None for any other line."""
    found = re.match(r"cosim +listening on [^ ]+:([0-9]+) ", line)
    return int(found.group(1)) if found else None
