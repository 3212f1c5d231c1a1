#!/usr/bin/env python3
"""An external vehicle model in Python, standard library only: the same prescribed row of shoes as
examples/prescribed_track.c, speaking the protocol of docs/protocol.md directly over TCP.

    python3 examples/python_client.py HOST PORT [STEPS] [--version N]

--version sends another protocol version, to see the terrain refuse it. Ends with
    example python steps=<n> shoes=<s> mean_fz=<N> mean_fx=<N>
Exit status 0, or 1 with the reason (a refusal from the terrain, a closed connection)."""
import json
import socket
import struct
import sys

HELLO, WELCOME, STATES, FORCES, FINISH, REFUSAL = 1, 2, 3, 4, 5, 6
SHOES, STEP, SPEED, PITCH, RADIUS = 8, 2e-3, 0.2, 0.08, 0.02


def frame(kind, payload):
    return b"TCSM" + struct.pack("<IQ", kind, len(payload)) + payload


def recv_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the terrain closed the connection")
        data += chunk
    return data


def read_frame(sock):
    head = recv_exactly(sock, 16)
    if head[:4] != b"TCSM":
        raise ValueError("not a trackcosim message")
    kind, length = struct.unpack("<IQ", head[4:])
    body = recv_exactly(sock, length)
    if kind == REFUSAL:
        raise RuntimeError("the terrain refused: " + json.loads(body)["error"])
    return kind, body


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    version = int(argv[argv.index("--version") + 1]) if "--version" in argv else 1
    if "--version" in argv:
        args.remove(str(version))
    host, port = args[0], int(args[1])
    steps = int(args[2]) if len(args) > 2 else 150
    sock = socket.create_connection((host, port), timeout=20)
    pad = [{"offset": [0.0, 0.04 * (k - 1), 0.0], "radius": RADIUS} for k in range(3)]
    still = {"position": [0, 0, 1], "orientation": [1, 0, 0, 0], "velocity": [0, 0, 0],
             "angular_velocity": [0, 0, 0]}
    hello = {"protocol": "trackcosim-cosim", "version": version, "units": "SI", "coupling_step": STEP,
             "end_time": steps * STEP,
             "shoes": [{"mass": 1.0, "spheres": pad, "state": still} for _ in range(SHOES)]}
    sock.sendall(frame(HELLO, json.dumps(hello).encode()))
    _, body = read_frame(sock)
    terrain = json.loads(body)
    z = terrain["surface_height"] + RADIUS - 0.01
    y = 0.5 * (terrain["patch"]["min"][1] + terrain["patch"]["max"][1])
    print("terrain: %d particles, surface at %.4f m" % (terrain["particles"], terrain["surface_height"]))
    sum_fz = sum_fx = 0.0
    counted = 0
    for k in range(steps):
        t = k * STEP
        states = []
        for i in range(SHOES):
            states += [0.2 + PITCH * i + SPEED * t, y, z, 1, 0, 0, 0, SPEED, 0, 0, 0, 0, 0]
        sock.sendall(frame(STATES, struct.pack("<QdQ", k, t, SHOES) + struct.pack("<%dd" % (13 * SHOES), *states)))
        kind, body = read_frame(sock)
        step, n = struct.unpack("<QQ", body[:16])
        if kind != FORCES or step != k or n != SHOES:
            raise RuntimeError("unexpected answer: kind %d step %d shoes %d" % (kind, step, n))
        forces = struct.unpack("<%dd" % (6 * n), body[16:])
        fz = sum(forces[6 * i + 2] for i in range(n))
        fx = sum(forces[6 * i] for i in range(n))
        if k >= steps // 2:
            sum_fz, sum_fx, counted = sum_fz + fz, sum_fx + fx, counted + 1
    sock.sendall(frame(FINISH, b""))
    sock.close()
    print("example python steps=%d shoes=%d mean_fz=%.3f mean_fx=%.3f" % (steps, SHOES, sum_fz / counted,
                                                                         sum_fx / counted))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (RuntimeError, ConnectionError, ValueError, OSError) as e:
        print("python_client: error: %s" % e, file=sys.stderr)
        sys.exit(1)
