# Median kernel time of every variant at one configuration, each bar's
# value over it where reports/charts.c placed it (columns 4, 5); the PyTorch
# backends measured on the same GPU at the same shape (peer_names,
# peer_times: space-separated lists, may be empty) as reference lines.
load 'common.gp'
set title sprintf("Kernel time per variant (median; lower is better)\n%s", subtitle)
set ylabel 'time (µs)'
set boxwidth bar_width
if (!exists("peer_names")) peer_names = ''
if (!exists("peer_times")) peer_times = ''
# An empty loop still has its expression parsed: without peers, no loop.
if (words(peer_names) > 0) {
    plot data using 1:3:xtic(2) with boxes lc rgb '#4477aa' title 'this run', \
         data using 1:5:4 with labels notitle, \
         for [i=1:words(peer_names)] real(word(peer_times, i)) with lines dt i + 1 lw 2 lc rgb word(peer_colors, i) \
             title sprintf('%s: %s µs (PyTorch, external)', word(peer_names, i), word(peer_times, i))
} else {
    plot data using 1:3:xtic(2) with boxes lc rgb '#4477aa' title 'this run', \
         data using 1:5:4 with labels notitle
}
