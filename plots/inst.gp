# Warp instructions executed per variant (profiled pass), each bar's value
# over it where reports/charts.c placed it (columns 4, 5).
load 'common.gp'
set title sprintf("Instructions executed per variant\n%s", subtitle)
set ylabel 'warp instructions (millions)'
set boxwidth bar_width
set key off
plot data using 1:3:xtic(2) with boxes lc rgb '#aa3377', \
     data using 1:5:4 with labels
