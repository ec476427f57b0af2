# Step by step: the first variant's time, each step's change (green faster,
# red slower) from the time of the step it changes (the bar before, or the
# one its label names: "against 21"), and as the last bar the final
# variant's time. Each bar's
# label (columns 7-10: up to two lines, each "text" and its height) is where
# reports/chart_layout.c placed it, over its bar and clear of every other bar and
# label; bar_width: the bars' width it placed them by.
load 'common.gp'
set title sprintf("Time, step by step (change against the previous variant, or the one a label names)\n%s", subtitle)
set ylabel 'time (µs)'
set linetype 11 lc rgb '#4477aa'
set linetype 12 lc rgb '#228833'
set linetype 13 lc rgb '#cc3311'
set key off
plot data using 1:(($3 + $4) / 2):(bar_width / 2):(abs($4 - $3) / 2):($6 + 11):xtic(2) with boxxyerror lc variable, \
     data using 1:8:7 with labels, \
     data using 1:10:9 with labels
