/* CPU time of a process tree from /proc (Linux), for the benchmarks. */
#ifndef BENCH_PROCTREE_H
#define BENCH_PROCTREE_H

/* user+sys CPU ms of pid and every live descendant, including the CPU of
 * exited children they waited for (cutime/cstime). -1 when /proc is not
 * readable. */
double bench_tree_cpu_ms(int pid);

#endif
