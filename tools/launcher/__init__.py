"""`trackcosim run` and what it runs with: the launcher (trackcosim, with its `plot`, `render` and
`mobility` subcommands in plots/ and mobility/), the settled-bed store (bed_store), the defence
against a launcher hung on a lost node (launch_guard), heterogeneous Slurm jobs (slurm_hetjob),
Open MPI on one host (mpi_loopback, private_network), the programs' parseable lines
(program_lines), the ranks' balance (rank_balance), the run folder's record (run_record), a
terrain grown for more ranks (terrain_grow), the terrain config a run writes to its folder
(run_terrain_config), the two processes of `--launcher tcp` (tcp_launch), and the coupling
scheme's stability study (coupling_stability). Imports plots/, mobility/ and common/; no other room imports it."""
