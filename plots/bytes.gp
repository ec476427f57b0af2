# DRAM reads, DRAM writes and L2 traffic from the SMs per variant (columns
# 4-6), with the analytic minimum DRAM traffic (dram_min, MB) as a line. Log
# scale: the naive variant moves orders of magnitude more. A log axis has no
# place for 0: zeros lists the bars that are absent for that reason.
load 'common.gp'
set title sprintf("Memory traffic per variant (profiled pass)\n%s", subtitle)
set ylabel 'bytes (MB, log scale)'
set logscale y
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9 relative
if (!exists("zeros")) zeros = ''
if (strlen(zeros) > 0) set label 2 sprintf('no bar (0 bytes, below any log axis): %s', zeros) at graph 0.01, graph 0.97 left front
plot data using 4:xtic(2) lc rgb '#4477aa' title 'DRAM reads', \
     data using 5 lc rgb '#66ccee' title 'DRAM writes', \
     data using 6 lc rgb '#ccbb44' title 'L2 reads + writes from SMs', \
     dram_min with lines dt 2 lw 2 lc rgb 'black' title sprintf('minimum DRAM traffic (model): %.1f MB', dram_min)
