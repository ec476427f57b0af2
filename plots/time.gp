# Median kernel time of every variant at one configuration: the steps, then
# the peer_bars peers the run measured itself (column 3: 1), each bar's
# value over it where reports/chart_layout.c placed it (columns 5, 6); the PyTorch
# backends measured apart on the same GPU at the same shape as reference
# lines (peer_times: their times, space-separated, may be empty; the name of
# the i-th in peer_name_i).
load 'common.gp'
set title sprintf("Kernel time per variant (median; lower is better)\n%s", subtitle)
set ylabel 'time (µs)'
set boxwidth bar_width
if (!exists("peer_times")) peer_times = ''
step_color = 0x4477aa
peer_color = 0xee7733
peers_title = peer_bars > 0 ? 'peers measured in this run' : ''
bars = "data using 1:4:($3 > 0 ? peer_color : step_color):xtic(2) with boxes lc rgb variable notitle, \
        NaN with boxes lc rgb step_color title 'steps of this run', \
        NaN with boxes lc rgb peer_color title peers_title, \
        data using 1:6:5 with labels notitle"
# An empty loop still has its expression parsed: without peers, no loop.
if (words(peer_times) > 0) {
    plot @bars, \
         for [i=1:words(peer_times)] real(word(peer_times, i)) with lines dt i + 1 lw 2 lc rgb word(peer_colors, i) \
             title sprintf('%s: %s µs (outside this run)', value(sprintf('peer_name_%d', i)), word(peer_times, i))
} else {
    plot @bars
}
