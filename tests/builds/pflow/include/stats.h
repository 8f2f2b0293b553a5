#ifndef PFLOW_STATS_H
#define PFLOW_STATS_H
double stats_rms(const int *v, int n);
int stats_odd(const int *v, int n);
#endif
