# dram.gp: chart 'dram' of warplab run labs/04-coalescing/measured/h200-charts-vec (written by warplab's plots/plot.c).
# Data: dram.dat. Redraw with `gnuplot dram.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 900,640 font "Sans,12" noenhanced background rgb "white"
}
set output "dram.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid ytics lt 1 lw 1 lc rgb "#E3E3E3"
set xrange [-0.60:5.60]
set yrange [0:2.60161]
set ylabel "GB" offset 0.5,0
set xtics ("1 (yours)" 0, "2" 1, "4" 2, "8" 3, "16" 4, "32" 5)
set object rect from -0.50, graph 0 to 0.50, graph 1 behind fc rgb "#FFE9A8" fs solid 1.0 noborder
set label "on the GPU: NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0  |  problem n=33554176 stride=1 offset=0 flip=0" at graph 0.5, graph 1 offset 0,1.00 center font ",11" tc rgb "#555555"
set label "DRAM traffic (bytes read and written), by stride" at graph 0.5, graph 1 offset 0,2.69 center font "Sans Bold,16"
set tmargin 4.3
set key outside below center horizontal Left reverse samplen 1.5 spacing 1.3 width 1 font ",11"
set style fill solid 0.92 border lc rgb "#303030"
plot "dram.dat" using ($0+0.0000):2:(0.6880) with boxes lc rgb "#3A6EA5" title "DRAM bytes (measured): dram__bytes.sum", \
     "" using ($0+0.0000):2:(fmt($2)) with labels offset 0,0.7 font ",10" notitle, \
     keyentry with boxes fc rgb "#FFE9A8" fs solid 1.0 noborder title "(yours): the kernel file's own choice"
set terminal svg size 900,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "dram.svg"
replot
unset output
