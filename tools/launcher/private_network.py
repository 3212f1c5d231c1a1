"""A co-simulation on one host in a network namespace of its own (jobs/README.md, "Open MPI's
network"): nothing it opens can be reached from another host.

Open MPI 4.1's mpirun listens for its out-of-band traffic on every interface (0.0.0.0 and [::];
orte/mca/oob/tcp/oob_tcp_listener.c binds INADDR_ANY, and no parameter changes the address),
even for a run whose every process is on this host. The launcher therefore starts mpirun inside
a new network namespace whose only interface is the loopback (`unshare --net`, then `ip link set
lo up`): its listeners, and the ranks', exist in that namespace only, where 0.0.0.0 is the
loopback. The namespace ends with the run.

It is taken only where it is safe and possible: mpirun on one host outside a batch job (Slurm's
daemons and PMIx live in the host's namespace), a root user or one whose user namespaces allow
it (`unshare --user --map-root-user`, the user mapped to root inside, as Open MPI is then told, with
a TMPDIR of the user's own),
`unshare` and `ip` installed, and TRACKCOSIM_NETNS not set to "off". Elsewhere the run goes as
before, and the launcher says that mpirun listens on every interface.
"""
import os
import shutil
import subprocess

# Brings the namespace's loopback up, then becomes the launch command (same process id, so the
# launcher's signals reach mpirun).
LOOPBACK_UP = 'ip link set lo up && exec "$@"'
# Open MPI refuses to run as root unless told; inside a user namespace the user is root.
ROOT_INSIDE = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def private_tmpdir():
    """The user's own TMPDIR for runs in a user namespace: there Open MPI believes it is root and
    names its session folder after uid 0 (/tmp/ompi.HOST.0), which is the real root's, or would
    become the user's and then refuse the real root. One folder per user, kept (Open MPI empties
    it), refused if another user owns it."""
    import tempfile
    path = os.path.join(tempfile.gettempdir(), "trackcosim-netns-%d" % os.getuid())
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if info.st_uid != os.getuid() or not os.path.isdir(path) or os.path.islink(path):
        return tempfile.mkdtemp(prefix="trackcosim-netns-")
    return path


def wanted(environ, launcher, one_host):
    """Whether the run should have its own namespace: mpirun on one host, outside a batch job,
    and not turned off (TRACKCOSIM_NETNS=off)."""
    return (one_host and launcher == "mpirun" and "SLURM_JOB_ID" not in environ and "PE_HOSTFILE" not in environ
            and environ.get("TRACKCOSIM_NETNS", "on") != "off")


def unshare_options(try_command=None):
    """The unshare options that make a network namespace here, and the environment it needs, or
    None where none works (no unshare or ip, no privilege, user namespaces off)."""
    unshare, ip = shutil.which("unshare"), shutil.which("ip")
    if not unshare or not ip:
        return None
    run = try_command or (lambda argv: subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                      timeout=10).returncode == 0)
    for options in (["--net"], ["--user", "--map-root-user", "--net"]):
        try:
            if run([unshare] + options + ["--", "sh", "-c", LOOPBACK_UP, "sh", "true"]):
                return [unshare] + options, (dict(ROOT_INSIDE, TMPDIR=private_tmpdir()) if "--user" in options else {})
        except (OSError, subprocess.SubprocessError):
            continue
    return None


def isolate(command, environ, launcher, one_host, try_command=None):
    """(command, extra environment, the line the launcher prints) for a run: the launch command
    inside its own network namespace where wanted and possible, else unchanged."""
    if not wanted(environ, launcher, one_host):
        return command, {}, None
    found = unshare_options(try_command)
    if found is None:
        return command, {}, ("trackcosim: one host: mpirun's own listener is open on every interface (no network "
                             "namespace could be made here: unshare --net needs root or user namespaces, and ip; "
                             "jobs/README.md, \"Open MPI's network\")")
    options, extra = found
    return (options + ["--", "sh", "-c", LOOPBACK_UP, "sh"] + command, extra,
            "trackcosim: one host: the run has a network namespace of its own, with only its loopback: nothing it "
            "opens can be reached from another host (%s; TRACKCOSIM_NETNS=off to leave it out)" % " ".join(
                [os.path.basename(options[0])] + options[1:]))
