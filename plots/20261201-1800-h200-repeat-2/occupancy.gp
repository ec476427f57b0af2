# Theoretical occupancy (the CUDA occupancy calculator) beside achieved
# occupancy (warps active, profiled) per variant.
load 'common.gp'
set title sprintf("Occupancy per variant\n%s", subtitle)
set ylabel 'resident warps / SM maximum (%)'
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9 relative
# Achieved occupancy only where the run was profiled: a series without a
# point draws nothing but a warning.
stats data using (valid(4) && column(4) == column(4)) nooutput
if (STATS_sum > 0) {
    plot data using 3:xtic(2) lc rgb '#4477aa' title 'theoretical', \
         data using 4 lc rgb '#ee6677' title 'achieved'
} else {
    plot data using 3:xtic(2) lc rgb '#4477aa' title 'theoretical'
}
