# Warp instructions executed per variant (profiled pass).
load 'common.gp'
set title sprintf("Instructions executed per variant\n%s", subtitle)
set ylabel 'warp instructions (millions)'
set yrange [0:*]
set boxwidth 0.6
set key off
plot data using 1:3:xtic(2) with boxes lc rgb '#aa3377', \
     data using 1:3:(sprintf('%.1f', $3)) with labels offset 0,0.8
