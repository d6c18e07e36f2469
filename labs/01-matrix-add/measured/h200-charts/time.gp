# time: drawn by warplab from time.dat; rerun with: gnuplot time.gp
set terminal pngcairo size 1100,560 font "Sans,11" noenhanced
set output 'time.png'
set title "Kernel time per block shape\nmeasured on NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0, problem nx=16384 ny=16384" font ",13"
set datafile separator "\t"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.9
set grid ytics lc rgb "#dddddd"
set border 3
set xtics nomirror rotate by -30 offset -1,0
set ytics nomirror
set ylabel "ms"
set key top left Left reverse samplen 2
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
plot 'time.dat' using 2:xtic(1) title "gpu__time_duration.sum (measured)" lc rgb "#3b6fb6", \
     'time.dat' using ($0 + 0.0000):2:(sprintf("%.3g", $2)) with labels offset 0,0.6 font ",9" notitle
set terminal svg size 1100,560 dynamic font "Sans,11" noenhanced
set output 'time.svg'
replot
unset output
