"""Decide symcal claims on a SLURM cluster: Dask workers in SLURM jobs (dask-jobqueue).

Needs ``pip install 'symcal[cluster]'`` (distributed, dask-jobqueue) on the login node and the
same symcal, Python and solvers on the compute nodes (a shared file system or the same
environment module): a worker that runs other code answers ``error``, never a verdict.

Two ways to use it, from the login node:

1. Start the workers and keep them while you run ``symcal`` from another shell::

       python examples/slurm_cluster.py --jobs 4 --serve
       # prints: scheduler at tcp://10.1.2.3:38917 ...
       symcal check 'duchi2010.*' --size 3..20 --cluster tcp://10.1.2.3:38917
       symcal selftest --mutants --cluster tcp://10.1.2.3:38917

2. Start the workers, decide, print the table, and release the jobs::

       python examples/slurm_cluster.py --jobs 4 'duchi2010.lemma14' --size 3..20

Each SLURM job runs ``--cores`` worker processes with one thread each (a decision is CPU-bound
and runs in its own child process with its CPU budget), so ``--jobs 4 --cores 8`` decides 32
claims at a time.  Decisions are cached under ``~/.cache/symcal`` (or ``--cache DIR``): a re-run
of a sweep costs nothing.
"""

from __future__ import annotations

import argparse
import sys
import time


def _slurm(args: argparse.Namespace):  # -> dask_jobqueue.SLURMCluster
    try:
        from dask_jobqueue import SLURMCluster
    except ImportError:
        sys.exit("this example needs dask-jobqueue: pip install 'symcal[cluster]'")
    cluster = SLURMCluster(
        cores=args.cores,  # CPU cores per SLURM job
        processes=args.cores,  # one worker process per core, one thread each
        memory=args.memory,  # per job; Dask restarts a worker past 95% of its share
        walltime=args.walltime,
        queue=args.queue,
        account=args.account,
        interface=args.interface,  # e.g. "ib0" when the nodes talk over InfiniBand
        job_extra_directives=args.sbatch or [],
    )
    cluster.scale(jobs=args.jobs)
    return cluster


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("patterns", nargs="*", help="claim ids, prefixes or globs (default: the whole library)")
    p.add_argument("--jobs", type=int, default=2, help="SLURM jobs to start (default 2)")
    p.add_argument("--cores", type=int, default=8, help="cores per job = worker processes per job (default 8)")
    p.add_argument("--memory", default="16GB", help="memory per job (default 16GB)")
    p.add_argument("--walltime", default="02:00:00", help="walltime per job (default 02:00:00)")
    p.add_argument("--queue", help="SLURM partition")
    p.add_argument("--account", help="SLURM account")
    p.add_argument("--interface", help="network interface of the nodes, e.g. ib0")
    p.add_argument("--sbatch", action="append", help="an extra #SBATCH line, e.g. --sbatch=--qos=short")
    p.add_argument("--serve", action="store_true", help="only start the workers and print the scheduler address")
    p.add_argument("--size", help="sizes A..B for sized claims")
    p.add_argument("--timeout", type=float, default=60.0, help="CPU seconds per decision (default 60)")
    p.add_argument("--cache", help="cache directory (default ~/.cache/symcal)")
    args = p.parse_args(argv)

    slurm = _slurm(args)
    print(f"scheduler at {slurm.scheduler_address}; {args.jobs} SLURM jobs of {args.cores} workers requested",
          file=sys.stderr)
    print(slurm.job_script(), file=sys.stderr)
    try:
        if args.serve:
            print(f"symcal check --cluster {slurm.scheduler_address}   (Ctrl-C here releases the jobs)")
            while True:
                time.sleep(3600)
        from symcal.cli import main as symcal

        cli = ["check", *args.patterns, "--cluster", slurm.scheduler_address, "--timeout", str(args.timeout)]
        if args.size:
            cli += ["--size", args.size]
        if args.cache:
            cli += ["--cache", args.cache]
        return symcal(cli)
    except KeyboardInterrupt:
        return 130
    finally:
        slurm.close()


if __name__ == "__main__":
    sys.exit(main())
