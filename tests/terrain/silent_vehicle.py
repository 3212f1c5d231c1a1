#!/usr/bin/env python3
"""silent_vehicle.py PORT MARKER [--hello]: a TCP vehicle that stops talking, for
terrain_signal_wait_test.sh. It connects to terrain_node --cosim on 127.0.0.1:PORT; with --hello
it also sends the hello of examples/python_client.py and takes the welcome, so the terrain then
waits for the states of coupling step 0. Then it writes "waiting" to MARKER (the test's event:
the terrain is, or is about to be, waiting for it) and sends nothing more until the terrain closes
the connection."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
from python_client import HELLO, RADIUS, SHOES, STEP, WELCOME, Terrain  # noqa: E402


def main(argv):
    port, marker = int(argv[1]), argv[2]
    terrain = Terrain("127.0.0.1", port, timeout=600, keepalive=0)
    if "--hello" in argv:
        still = {"position": [0, 0, 1], "orientation": [1, 0, 0, 0], "velocity": [0, 0, 0],
                 "angular_velocity": [0, 0, 0]}
        shoe = {"mass": 1.0, "spheres": [{"offset": [0.0, 0.0, 0.0], "radius": RADIUS}], "state": still}
        hello = {"protocol": "trackcosim-cosim", "version": 1, "units": "SI", "coupling_step": STEP,
                 "end_time": 100 * STEP, "shoes": [shoe] * SHOES}
        terrain.send(HELLO, json.dumps(hello).encode())
        terrain.receive(WELCOME)
    with open(marker, "w") as f:
        f.write("waiting\n")
    terrain.sock.settimeout(None)
    while terrain.sock.recv(1 << 16):  # the terrain's refusal, if any, then its close
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
