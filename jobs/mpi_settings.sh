# shellcheck shell=bash
# Sourced by the job scripts in jobs/: Open MPI settings for jobs whose ranks span nodes. Each one
# is a default only: a value already in the environment (OMPI_MCA_...) wins.
#
# A node lost mid-run (its network gone, or the node down) sends nothing more: no reset, no
# closed connection, so TCP on the other nodes notices nothing for minutes. mpirun keeps a
# connection to the Open MPI daemon of every node; TCP keepalive probes on those connections
# tell it that a node is gone ("ORTE has lost communication with a remote daemon"), and it ends
# the job. Open MPI's default sends the first probe after 300 s of silence and gives up after 9
# more, 20 s apart: 8 minutes. Here: a probe after 5 s of silence, given up after 3 more 2 s
# apart, so that a lost node is known within about 11 s, before the programs' own deadlines
# (20 s and more) fire. It must come first: once a rank has exited, mpirun's message to the lost
# node keeps the connection busy, and keepalive no longer runs on it (tools/launcher/launch_guard.py then
# ends mpirun). Measured on the namespace cluster (tests/slurm/netns_cluster.sh), a host's
# interface set down: the job ended 13.5 s later; without these settings it ran on until Slurm
# declared the node dead (SlurmdTimeout, 300 s by default). Under srun, the programs' deadlines
# and tools/launcher/launch_guard.py end the job.
export OMPI_MCA_oob_tcp_keepalive_time=${OMPI_MCA_oob_tcp_keepalive_time:-5}
export OMPI_MCA_oob_tcp_keepalive_intvl=${OMPI_MCA_oob_tcp_keepalive_intvl:-2}
export OMPI_MCA_oob_tcp_keepalive_probes=${OMPI_MCA_oob_tcp_keepalive_probes:-3}
