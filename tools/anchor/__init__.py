"""The helical anchor of Negrut et al. (NDIA 2012; docs/anchor.md): its sphere set and mass
properties (anchor_spheres) and its two parameter sweeps, run here or as Slurm jobs, with their
figures (anchor_sweep). Imports common/ only."""
