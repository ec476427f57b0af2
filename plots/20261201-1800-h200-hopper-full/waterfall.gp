# Step by step: the first variant's time, each step's change (green faster,
# red slower, labelled with the change), and as the last bar the final
# variant's time, labelled with the change over all steps.
load 'common.gp'
set title sprintf("Time, step by step (change against the previous variant)\n%s", subtitle)
set ylabel 'time (µs)'
set yrange [0:*]
set linetype 11 lc rgb '#4477aa'
set linetype 12 lc rgb '#228833'
set linetype 13 lc rgb '#cc3311'
set key off
plot data using 1:(($3 + $4) / 2):(0.35):(abs($4 - $3) / 2):($6 + 11):xtic(2) with boxxyerror lc variable, \
     data using 1:($3 > $4 ? $3 : $4):($6 == 0 && $1 == 0 ? sprintf('%.1f µs', $4) : \
         $6 == 0 ? '' : sprintf('%+.1f%%', $5)) with labels offset 0,0.8, \
     data using 1:($1 > 0 && $6 == 0 ? $4 : NaN):(sprintf('%.1f µs\n%+.1f%% in all', $4, $5)) \
         with labels offset 0,1.5
