# L2 sector hit rate per variant. Values above 100% happen for tiny kernels
# (replay passes disagree) and are shown as measured.
load 'common.gp'
set title sprintf("L2 hit rate per variant\n%s", subtitle)
set ylabel 'L2 sector hit rate (%)'
set yrange [0:110]
set boxwidth 0.6
set key off
plot data using 1:3:xtic(2) with boxes lc rgb '#ccbb44', \
     data using 1:3:(sprintf('%.1f', $3)) with labels offset 0,0.8
