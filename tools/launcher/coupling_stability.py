#!/usr/bin/env python3
"""Stability of the explicit shoe coupling (docs/protocol.md, "Shoe contact law").

One shoe of mass m on a spring K and damper C over the coupling step H, with a = K H^2 / m and
b = C H / m. The terrain's proxy moves with the shoe's velocity v over the interval, so its
implicit spring sees the compression x + H v. The vehicle applies the force
F = -K (x + H v) - C v found for the state at the start of the interval (sequential scheme)
or of the interval before (concurrent scheme). Prints, for each scheme, the factor by which
an error shrinks per step (max |eigenvalue| estimated by simulation; > 1 is unstable).
Usage: tools/launcher/coupling_stability.py
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tools/, the import root
from common.help_option import exit_on_help  # noqa: E402


def decay(a, b, lag, steps=3000):
    """Mean factor per step by which |(y, v)| changes, renormalising so that it never under- or
    overflows (the update is linear)."""
    y, v = 1.0, 0.0  # y = x / H
    history = [(y, v)] * 3
    log_growth = 0.0
    for _ in range(steps):
        ys, vs = history[-lag]
        v = v - a * (ys + vs) - b * vs
        y = y + v
        history = history[-2:] + [(y, v)]
        size = max(abs(y), abs(v), abs(ys), abs(vs))
        if size == 0.0:
            return 0.0  # dead-beat: the error vanished exactly
        log_growth += math.log(size)
        history = [(p / size, q / size) for p, q in history]
        y, v = history[-1]
    return math.exp(log_growth / steps)


def main():
    exit_on_help(sys.argv, __doc__)
    bs = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
    for name, lag in (("sequential", 1), ("concurrent", 2)):
        print("%s scheme: decay per step (rows a = K H^2/m, columns b = C H/m)" % name)
        print("   a  " + "".join("  b=%-5.2f" % b for b in bs))
        for a in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 2.0 / 3.0, 1.0, 1.3):
            cells = []
            for b in bs:
                d = decay(a, b, lag)
                cells.append("  %7s" % ("unst" if d >= 1.0 else "%.3f" % d))
            print("%5.2f " % a + "".join(cells))
        print()


if __name__ == "__main__":
    main()
