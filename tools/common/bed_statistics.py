"""Means over several beds (bench/gravel_convergence.py --beds N): a granular bed is chaotic, so
one realisation against another moves a light vehicle's sinkage and torque by more than the 5%
criterion (docs/ccp.md, "A bed of a given density"). A variant is then judged by the change of
its mean over N beds against the base's mean over the same N seeds, with a 95% interval:

  change = mean_v / mean_b - 1,   sigma = sqrt((sem_v / mean_b)^2 + (mean_v sem_b / mean_b^2)^2)
  half width = t_0.975(2N - 2) sigma,   sem = sample standard deviation / sqrt(N)

converged=yes when the whole interval lies within the tolerance, no when it lies wholly outside,
unresolved when it straddles a bound: more beds (or a longer window) are needed to tell.
"""
import math

# Student's t, 97.5% quantile, by degrees of freedom (two-sided 95%); beyond the table the normal's.
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
         10: 2.228, 12: 2.179, 14: 2.145, 16: 2.120, 18: 2.101, 20: 2.086, 25: 2.060, 30: 2.042}


def t_975(degrees):
    """The 97.5% quantile of Student's t with this many degrees of freedom (>= 1): the table's
    entry at or below it, which errs wide."""
    return T_975[max(d for d in T_975 if d <= degrees)] if degrees <= 30 else 1.960


def mean_and_sem(values):
    """(mean, standard error of the mean) of two or more values."""
    n = len(values)
    if n < 2:
        raise ValueError("a standard error needs two or more beds, got %d" % n)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def relative_change(values, reference_values):
    """(change of the means, 95% half width) of values against reference_values, relative to the
    reference's mean; both lists have one value per bed."""
    mean, sem = mean_and_sem(values)
    ref, ref_sem = mean_and_sem(reference_values)
    sigma = math.hypot(sem / ref, mean * ref_sem / ref ** 2)
    return mean / ref - 1, t_975(len(values) + len(reference_values) - 2) * sigma


def verdict(change, half_width, tolerance):
    """"yes", "no" or "unresolved" (see the module doc)."""
    if abs(change) + half_width < tolerance:
        return "yes"
    if abs(change) - half_width >= tolerance:
        return "no"
    return "unresolved"
