# bandwidth.gp: chart 'bandwidth' of warplab run labs/03-latency-hiding/measured/emu-charts (written by warplab's plots/plot.c).
# Data: bandwidth.dat. Redraw with `gnuplot bandwidth.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1200,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 1200,640 font "Sans,12" noenhanced background rgb "white"
}
set output "bandwidth.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid xtics ytics lt 1 lw 1 lc rgb "#E3E3E3"
set logscale x 2
set xrange [3.4822:73.5167]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64)
set yrange [0:5280]
set ylabel "GB/s: 12 bytes per element over the time less a launch's" offset 0.5,0
set xlabel "resident warps per SM (log scale)"
set label "with dram_bandwidth_gbs = 4800, sm_count = 132, sm_clock_mhz = 1980, dram_cycles = 641 (h200.conf)" at screen 0.5, graph 1 offset 0,1.00 center font ",10" tc rgb "#333333"
set label "prediction (Little's law) = min(dram_bandwidth_gbs, WARPS * 32 * UNROLL * 12 * sm_count * sm_clock_mhz / 1000 / dram_cycles)" at screen 0.5, graph 1 offset 0,2.35 center font ",10" tc rgb "#333333"
set label "on the emulator, profile NVIDIA H200 SXM 141GB  |  problem n=8650752 blocks=2112" at screen 0.5, graph 1 offset 0,3.70 center font ",11" tc rgb "#555555"
set label "DRAM bandwidth against warps per SM, and what Little's law predicts" at screen 0.5, graph 1 offset 0,5.39 center font "Sans Bold,16"
set tmargin 7.0
set key outside right top vertical Left reverse samplen 3 spacing 1.4 width -5 font ",11"
plot "bandwidth.dat" index 0 using 2:(column(3)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#3A6EA5" title "warps, UNROLL 1 (modelled)", \
     "bandwidth.dat" index 2 using 1:2 with lines dt (10,6) lw 2.5 lc rgb "#3A6EA5" title "prediction (Little's law), warps, UNROLL 1", \
     "bandwidth.dat" index 1 using 2:(column(3)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#E07B39" title "warps, your UNROLL (modelled)", \
     "bandwidth.dat" index 3 using 1:2 with lines dt (10,6) lw 2.5 lc rgb "#E07B39" title "prediction (Little's law), warps, your UNROLL", \
     "bandwidth.dat" index 0 using 2:(strstrt(strcol(1), "(yours)") > 0 ? column(3) : NaN) with points pt 6 ps 3.2 lw 2 lc rgb "#000000" title "(yours): the kernel file's own choice", \
     "bandwidth.dat" index 1 using 2:(strstrt(strcol(1), "(yours)") > 0 ? column(3) : NaN) with points pt 6 ps 3.2 lw 2 lc rgb "#000000" notitle
set terminal svg size 1200,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "bandwidth.svg"
replot
unset output
