# L2 sector hit rate per variant, each bar's value over it where
# reports/chart_layout.c placed it (columns 5, 6). Values above 100% happen for
# tiny kernels (replay passes disagree) and are shown as measured.
load 'common.gp'
set title sprintf("L2 hit rate per variant\n%s", subtitle)
set ylabel 'L2 sector hit rate (%)'
set boxwidth bar_width
set key off
plot data using 1:4:xtic(2) with boxes lc rgb '#ccbb44', \
     data using 1:6:5 with labels
