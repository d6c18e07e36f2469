# stride_time.gp: chart 'stride_time' of warplab run labs/05-bank-conflicts/measured/h200-charts (written by warplab's plots/plot.c).
# Data: stride_time.dat. Redraw with `gnuplot stride_time.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 988,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 988,640 font "Sans,12" noenhanced background rgb "white"
}
set output "stride_time.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid ytics lt 1 lw 1 lc rgb "#E3E3E3"
set xrange [-0.60:8.60]
set yrange [0:373.263]
set ylabel "microseconds" offset 0.5,0
set xtics ("2x33 (yours)" 0, "1x32" 1, "1x33" 2, "1x34" 3, "1x36" 4, "1x40" 5, "1x48" 6, "1x64" 7, "1x65" 8)
set xtics rotate by 35 right
set object rect from -0.50, graph 0 to 0.50, graph 1 behind fc rgb "#FFE9A8" fs solid 1.0 noborder
set label "on the GPU: NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0  |  problem width=8192 height=8192 shift=0" at graph 0.5, graph 1 offset 0,1.00 center font ",11" tc rgb "#555555"
set label "Kernel time, by the padded tile's row pitch (labels: VARIANT x PITCH)" at graph 0.5, graph 1 offset 0,2.69 center font "Sans Bold,16"
set tmargin 4.3
set key outside below center horizontal Left reverse samplen 1.5 spacing 1.3 width 1 font ",11"
set style fill solid 0.92 border lc rgb "#303030"
plot "stride_time.dat" using ($0+0.0000):2:(0.6880) with boxes lc rgb "#3A6EA5" title "time (measured): gpu__time_duration.sum", \
     "" using ($0+0.0000):2:(fmt($2)) with labels offset 0,0.7 font ",10" notitle, \
     keyentry with boxes fc rgb "#FFE9A8" fs solid 1.0 noborder title "(yours): the kernel file's own choice"
set terminal svg size 988,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "stride_time.svg"
replot
unset output
