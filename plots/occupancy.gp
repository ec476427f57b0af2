# Theoretical occupancy (the CUDA occupancy calculator, column 4) beside
# achieved occupancy (warps active, profiled; column 5) per variant.
load 'common.gp'
set title sprintf("Occupancy per variant\n%s", subtitle)
set ylabel 'resident warps / SM maximum (%)'
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9 relative
# Achieved occupancy only where the run was profiled: a series without a
# point draws nothing but a warning.
stats data using (valid(5) && column(5) == column(5)) nooutput
if (STATS_sum > 0) {
    plot data using 4:xtic(2) lc rgb '#4477aa' title 'theoretical', \
         data using 5 lc rgb '#ee6677' title 'achieved'
} else {
    plot data using 4:xtic(2) lc rgb '#4477aa' title 'theoretical'
}
