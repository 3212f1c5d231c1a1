"""`trackcosim run --launcher tcp`: a co-simulation as two plain processes, without mpirun.

Where no MPI launcher is at hand (a GPU machine without MPI, a laptop, a build without MPI:
docs/gpu.md), terrain_node --cosim runs as one process (one terrain rank) serving on a TCP port
of this host, and vehicle_node connects to it (docs/protocol.md, "Starting over TCP"). The
terrain config the run uses couples over TCP on 127.0.0.1, port 0 (run_terrain_config.py): the
system picks a free port, so runs side by side (mobility points) never collide. The launcher
starts terrain_node, reads the port from its line `cosim      listening on 127.0.0.1:<port> for
the vehicle` (program_lines.py), then starts vehicle_node with the MPMD line's arguments but
`--terrain tcp --terrain-host 127.0.0.1 --terrain-port <port>`.

TcpJob stands where mpirun's process stands in tools/launcher/trackcosim.py, so that the run is
read the same way whatever launched it: `stdout` yields both programs' lines as they come (each
a whole line of one program), send_signal reaches both, and wait() is the status of the program
that failed first (0 when neither did), as mpirun's is its first failed rank's. A program that
fails leaves its peer PEER_GRACE_S to end on its own, as it does when the connection closes
(naming the closed connection: the more useful message); then the peer is ended, as mpirun ends
a failed job's other ranks. A vehicle that exits before it connects would otherwise leave the
terrain waiting for it for all of cosim.timeout."""
import queue
import subprocess
import threading
import time

from launcher.launch_guard import end_process_tree
from launcher.program_lines import listening_port
from launcher.run_terrain_config import TCP_HOST

PEER_GRACE_S = 5.0
DEFAULT_TIMEOUT_S = 20.0  # cosim.timeout's default (terrain_node/config/terrain_config.h)
PORT_UNKNOWN = "PORT"      # a --dry-run's vehicle line: the port is the one terrain_node will print


def vehicle_over_tcp(vehicle_cmd, port):
    """vehicle_node's MPMD command line (`--terrain mpi`) connecting to the terrain at port instead."""
    at = vehicle_cmd.index("--terrain")
    return vehicle_cmd[:at] + ["--terrain", "tcp", "--terrain-host", TCP_HOST, "--terrain-port", str(port)] + \
        vehicle_cmd[at + 2:]


def exit_status(returncode):
    """A child's status as a shell says it: 128 + N for a program ended by signal N."""
    return 128 - returncode if returncode < 0 else returncode


class TcpJob:
    """terrain_node, then vehicle_node once the terrain listens; see the module's text."""

    def __init__(self, terrain_cmd, vehicle_cmd, env, listen_timeout, log):
        self.vehicle_cmd, self.env, self.log = vehicle_cmd, env, log
        self.listen_timeout = listen_timeout or DEFAULT_TIMEOUT_S
        self.failure = None      # why the vehicle was never started, for the launcher's error line
        self.stop_signal = None  # the stop passed on, if any: no vehicle starts after it
        self.processes = {}      # program name: its process
        self.exits = []          # (program name, exit status), in the order the programs ended
        self._lines = queue.Queue()
        self._peer_timer = None
        self._start("terrain_node", terrain_cmd)
        self.stdout = self._merged_lines()

    def _start(self, name, command):
        process = subprocess.Popen(command, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, errors="replace")
        self.processes[name] = process

        def read():
            try:
                for line in process.stdout:
                    self._lines.put((name, line))
            finally:  # always said, or the launcher would wait for this program's lines forever
                self._lines.put((name, None))
        threading.Thread(target=read, daemon=True).start()

    def _waits_for_port(self):
        return "vehicle_node" not in self.processes and self.stop_signal is None and self.failure is None

    def _merged_lines(self):
        try:
            yield from self._lines_until_both_end()
        except BaseException:  # a second Ctrl-C ends the launcher, and its programs, as it ends mpirun
            self._end(self.processes.values())
            raise
        finally:
            if self._peer_timer:
                self._peer_timer.cancel()

    def _lines_until_both_end(self):
        deadline = time.monotonic() + self.listen_timeout
        open_pipes = 1
        while open_pipes:
            timeout = max(0.0, deadline - time.monotonic()) if self._waits_for_port() else None
            try:
                name, line = self._lines.get(timeout=timeout)
            except queue.Empty:
                self.failure = ("terrain_node printed no `listening on 127.0.0.1:<port>` line within %g s "
                                "(cosim.timeout) and was ended; its lines are above and in %s" % (
                                    self.listen_timeout, self.log))
                end_process_tree(self.processes["terrain_node"].pid)
                continue
            if line is None:
                open_pipes -= 1
                self._ended(name)
                continue
            yield line
            port = listening_port(line) if name == "terrain_node" and self._waits_for_port() else None
            if port is not None:  # not after a stop: the terrain ends without a vehicle
                self.vehicle_cmd = vehicle_over_tcp(self.vehicle_cmd, port)
                yield "trackcosim: " + " ".join(self.vehicle_cmd) + "\n"
                self._start("vehicle_node", self.vehicle_cmd)
                open_pipes += 1

    def _ended(self, name):
        status = exit_status(self.processes[name].wait())
        self.exits.append((name, status))
        if name == "terrain_node" and self._waits_for_port():
            self.failure = "terrain_node exited with status %d before it listened for the vehicle; its lines " \
                           "are above and in %s" % (status, self.log)
        peers = [p for other, p in self.processes.items() if other != name and p.poll() is None]
        if status != 0 and peers and self._peer_timer is None:
            self._peer_timer = threading.Timer(PEER_GRACE_S, self._end, [peers])
            self._peer_timer.daemon = True
            self._peer_timer.start()

    @staticmethod
    def _end(processes):
        for process in list(processes):
            if process.poll() is None:
                end_process_tree(process.pid)

    def send_signal(self, signum):
        """signum to both programs (to the terrain alone before it listens: the vehicle then never starts)."""
        self.stop_signal = signum
        for process in self.processes.values():
            try:
                process.send_signal(signum)
            except ProcessLookupError:
                pass

    def wait(self):
        """The status of the program that failed first, 0 when both succeeded."""
        for process in self.processes.values():
            process.wait()
        return next((status for _, status in self.exits if status != 0), 0)
