# staircase.gp: chart 'staircase' of warplab run labs/03-latency-hiding/measured/staircase-charts (written by warplab's plots/plot.c).
# Data: staircase.dat. Redraw with `gnuplot staircase.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1200,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 1200,640 font "Sans,12" noenhanced background rgb "white"
}
set output "staircase.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid xtics ytics lt 1 lw 1 lc rgb "#E3E3E3"
set logscale x 2
set xrange [10.5561:99334]
set xtics ("16" 16, "64" 64, "256" 256, "1024" 1024, "4096" 4096, "16384" 16384, "65536" 65536)
set yrange [0:732.589]
set ylabel "SM cycles per step" offset 0.5,0
set xlabel "footprint the chase cycles through, KB (log scale)"
set label "with l1_bytes = 262144, l1_hit_cycles = 31, l2_bytes = 52428800, l2_hit_cycles = 364, dram_cycles = 641 (h200.conf)" at screen 0.5, graph 1 offset 0,1.00 center font ",10" tc rgb "#333333"
set label "the profile's load latency (L1, L2, DRAM) = KB * 1024 <= l1_bytes ? l1_hit_cycles : (KB * 1024 <= l2_bytes ? l2_hit_cycles : dram_cycles)" at screen 0.5, graph 1 offset 0,2.35 center font ",10" tc rgb "#333333"
set label "chase.cu on warplab emu (profile h200), and an H200 (bench/timing/calibration/h200)" at screen 0.5, graph 1 offset 0,3.70 center font ",11" tc rgb "#555555"
set label "The latency staircase: cycles per dependent load against the footprint" at screen 0.5, graph 1 offset 0,5.39 center font "Sans Bold,16"
set tmargin 7.0
set key outside right top vertical Left reverse samplen 3 spacing 1.4 width -5 font ",11"
plot "staircase.dat" index 0 using 2:(column(3)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#3A6EA5" title "emulator, chase.cu (modelled)", \
     "staircase.dat" index 0 using 2:(column(4)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#E07B39" title "H200, calibration chase (measured)", \
     "staircase.dat" index 1 using 1:2 with lines dt (10,6) lw 2.5 lc rgb "#222222" title "the profile's load latency (L1, L2, DRAM)"
set terminal svg size 1200,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "staircase.svg"
replot
unset output
