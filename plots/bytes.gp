# DRAM reads, DRAM writes and L2 traffic from the SMs per variant (columns
# 4-6), with the analytic minimum DRAM traffic (dram_min, MB) as a line. Log
# scale: the naive variant moves orders of magnitude more. reports/chart_bars.c
# draws no bar for a count under `negligible` (MB: a thousandth of the
# minimum, or 0, which a log axis cannot show) and starts the axis a decade
# under the lowest bar; `absent` names the bars left out, in the top row,
# which the frame keeps clear (frame_rows: the plot's rows, at least).
# drawn_cols: the columns with a bar at all (a series without a point draws
# nothing but a warning).
load 'common.gp'
set title sprintf("Memory traffic per variant (profiled pass)\n%s", subtitle)
set ylabel 'bytes (MB, log scale)'
set logscale y
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9 relative
if (strlen(absent) > 0) set label 2 sprintf('no bar under %.2g MB (a thousandth of the minimum): %s', negligible, absent) \
    at graph 0.01, graph 1 - 0.75 / frame_rows left front
color(k) = word('#4477aa #66ccee #ccbb44', k - 3)
name(k) = k == 4 ? 'DRAM reads' : k == 5 ? 'DRAM writes' : 'L2 reads + writes from SMs'
plot for [k in drawn_cols] data using int(k):xtic(2) lc rgb color(int(k)) title name(int(k)), \
     dram_min with lines dt 2 lw 2 lc rgb 'black' title sprintf('minimum DRAM traffic (model): %.1f MB', dram_min)
