# Warp instructions executed per variant (profiled pass), each bar's value
# over it where reports/chart_layout.c placed it (columns 5, 6).
load 'common.gp'
set title sprintf("Instructions executed per variant\n%s", subtitle)
set ylabel 'warp instructions (millions)'
set boxwidth bar_width
set key off
plot data using 1:4:xtic(2) with boxes lc rgb '#aa3377', \
     data using 1:6:5 with labels
