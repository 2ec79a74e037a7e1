#!/usr/bin/python3
# ===- compare.py - The build before and after batched list claims ---------===#
#
# Reads smc_suite_bench JSON files named *-base-N.json (the build before
# batched claims for chunk tables and cluster orders) and *-new-N.json (the
# build with them), one repetition each, and prints per workload the median
# over runs of smc/original and smc-cluster/original for both builds, then
# the median and geomean of each column.  The suite-* files were cut off by
# a time limit (after tea; rest-* has the workloads after it), so they are
# read with a pattern, not as JSON.
#
# USAGE: compare.py suite-*.json rest-*.json
# ===------------------------------------------------------------------------===#
import re,collections,statistics,sys,glob
def load(f):
    s=open(f).read(); t={}
    for m in re.finditer(r'"name": "([^"]+)",.*?"run_type": "(\w+)".*?"real_time": ([0-9.e+-]+)', s, re.S):
        if m.group(2)=='iteration':
            w,fm=m.group(1).split('/')[:2]; t[(w,fm)]=float(m.group(3))
    return t
runs={'base':[],'new':[]}
for f in sys.argv[1:]:
    runs['base' if '-base-' in f else 'new'].append(load(f))
keys=set()
for k in runs:
    for r in runs[k]: keys|=set(r)
ws=sorted(set(w for w,f in keys))
out={}
for w in ws:
    row=[]
    for f in ('smc','smc-cluster'):
        for k in ('base','new'):
            vals=[r[(w,f)]/r[(w,'original')] for r in runs[k] if (w,f) in r and (w,'original') in r]
            row.append(statistics.median(vals) if vals else float('nan'))
    out[w]=row
    print(f"{w:8s} "+" ".join(f"{x:9.3f}" for x in row))
import math
for i,n in enumerate(['smc base','smc new','clu base','clu new']):
    v=[r[i] for r in out.values() if not math.isnan(r[i])]
    print(n, 'median', round(statistics.median(v),3), 'geomean', round(math.exp(sum(map(math.log,v))/len(v)),3), len(v))
