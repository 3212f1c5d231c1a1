#!/usr/bin/env python3
"""An external vehicle model in Python, standard library only: the same prescribed row of shoes as
examples/prescribed_track.c, speaking the protocol of docs/protocol.md directly over TCP.

    python3 examples/python_client.py HOST PORT [STEPS] [--timeout S] [--keepalive S] [--version N]

--timeout: the longest silence accepted from the terrain on any wait (default 20 s).
--keepalive: asks for working frames after this many seconds of terrain silence (default: a
quarter of the timeout; 0 leaves the key out of the hello, and the terrain then sends none).
--version: sends another protocol version, to see the terrain refuse it. Ends with
    example python steps=<n> shoes=<s> mean_fz=<N> mean_fx=<N> working=<frames>
Exit status 0, or 1 with the reason (a refusal from the terrain, a closed connection, a timeout)."""
import json
import socket
import struct
import sys
import time

HELLO, WELCOME, STATES, FORCES, FINISH, REFUSAL, WORKING = 1, 2, 3, 4, 5, 6, 9
SHOES, STEP, SPEED, PITCH, RADIUS = 8, 2e-3, 0.2, 0.08, 0.02


def frame(kind, payload):
    """A frame: magic, kind (uint32), payload length (uint64), payload; little-endian."""
    return b"TCSM" + struct.pack("<IQ", kind, len(payload)) + payload


def recv_exactly(sock, n, deadline):
    """Exactly n bytes, all arrived before `deadline` (time.monotonic())."""
    data = bytearray()
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the terrain sent nothing for the whole timeout")
        sock.settimeout(left)
        try:
            chunk = sock.recv(min(n - len(data), 1 << 20))
        except socket.timeout:
            raise TimeoutError("the terrain sent nothing for the whole timeout") from None
        if not chunk:
            raise ConnectionError("the terrain closed the connection")
        data += chunk
    return bytes(data)


class Terrain:
    """The connection to terrain_node: frames out, frames in, every wait bounded by `timeout`."""

    def __init__(self, host, port, timeout, keepalive):
        self.timeout, self.keepalive, self.working = timeout, keepalive, 0
        deadline = time.monotonic() + timeout
        while True:  # the terrain may not listen yet when the port is fixed: retry until the timeout
            try:
                self.sock = socket.create_connection((host, port), timeout=timeout)
                break
            except ConnectionRefusedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, kind, payload):
        self.sock.settimeout(self.timeout)  # a terrain that stops reading ends in socket.timeout
        self.sock.sendall(frame(kind, payload))

    def receive(self, expected):
        """The next frame of kind `expected`; working frames restart the wait, a refusal ends it."""
        while True:
            deadline = time.monotonic() + self.timeout
            head = recv_exactly(self.sock, 16, deadline)
            if head[:4] != b"TCSM":
                raise ValueError("not a trackcosim message (bad magic)")
            kind, length = struct.unpack("<IQ", head[4:])
            body = recv_exactly(self.sock, length, deadline)
            if kind == WORKING and self.keepalive > 0:
                self.working += 1
                continue
            if kind == REFUSAL:
                raise RuntimeError("the terrain refused: " + json.loads(body)["error"])
            if kind != expected:
                raise RuntimeError("expected a frame of kind %d, got kind %d" % (expected, kind))
            return body

    def close(self):
        """finish, then wait for the terrain to close its end: it sends no answer to finish."""
        self.send(FINISH, b"")
        self.sock.shutdown(socket.SHUT_WR)
        try:
            recv_exactly(self.sock, 1, time.monotonic() + self.timeout)
            raise RuntimeError("the terrain sent a frame after finish")
        except ConnectionError:
            pass  # end of stream: the terrain has ended the coupling
        self.sock.close()


def option(argv, name, default):
    if name not in argv:
        return default
    at = argv.index(name)
    value = argv[at + 1]
    del argv[at:at + 2]
    return float(value)


def main(argv):
    argv = list(argv[1:])
    timeout = option(argv, "--timeout", 20.0)
    keepalive = option(argv, "--keepalive", timeout / 4)
    version = int(option(argv, "--version", 1))
    host, port = argv[0], int(argv[1])
    steps = int(argv[2]) if len(argv) > 2 else 150
    terrain = Terrain(host, port, timeout, keepalive)

    # Each shoe: a pad of 3 spheres across it, in the shoe frame. The hello's state only has to be
    # valid: the terrain takes each shoe's pose from states(0) before its first step.
    pad = [{"offset": [0.0, 0.04 * (k - 1), 0.0], "radius": RADIUS} for k in range(3)]
    still = {"position": [0, 0, 1], "orientation": [1, 0, 0, 0], "velocity": [0, 0, 0],
             "angular_velocity": [0, 0, 0]}
    hello = {"protocol": "trackcosim-cosim", "version": version, "units": "SI", "coupling_step": STEP,
             "end_time": steps * STEP,
             "shoes": [{"mass": 1.0, "spheres": pad, "state": still} for _ in range(SHOES)]}
    if keepalive > 0:
        hello["keepalive"] = keepalive
    terrain.send(HELLO, json.dumps(hello).encode())
    welcome = json.loads(terrain.receive(WELCOME))  # after the terrain has built and settled its bed
    # Sphere bottoms 10 mm below the surface, along the middle of the bed.
    z = welcome["surface_height"] + RADIUS - 0.01
    y = 0.5 * (welcome["patch"]["min"][1] + welcome["patch"]["max"][1])
    print("terrain: %d particles, surface at %.4f m" % (welcome["particles"], welcome["surface_height"]))

    sum_fz = sum_fx = 0.0
    counted = 0
    for k in range(steps):
        t = k * STEP
        states = []  # per shoe: x y z, qw qx qy qz, vx vy vz, wx wy wz (world frame)
        for i in range(SHOES):
            states += [0.2 + PITCH * i + SPEED * t, y, z, 1, 0, 0, 0, SPEED, 0, 0, 0, 0, 0]
        terrain.send(STATES, struct.pack("<QdQ", k, t, SHOES) + struct.pack("<%dd" % (13 * SHOES), *states))
        body = terrain.receive(FORCES)  # the mean over [t, t + STEP] of the terrain's force on each shoe
        step, n = struct.unpack("<QQ", body[:16])
        if step != k or n != SHOES or len(body) != 16 + 48 * n:
            raise RuntimeError("unexpected forces: step %d, %d shoes, %d bytes" % (step, n, len(body)))
        forces = struct.unpack("<%dd" % (6 * n), body[16:])  # per shoe: Fx Fy Fz, Tx Ty Tz
        if k >= steps // 2:
            sum_fz += sum(forces[6 * i + 2] for i in range(n))
            sum_fx += sum(forces[6 * i] for i in range(n))
            counted += 1
    terrain.close()
    print("example python steps=%d shoes=%d mean_fz=%.3f mean_fx=%.3f working=%d"
          % (steps, SHOES, sum_fz / counted, sum_fx / counted, terrain.working))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (RuntimeError, ConnectionError, ValueError, OSError) as e:
        print("python_client: error: %s" % e, file=sys.stderr)
        sys.exit(1)
