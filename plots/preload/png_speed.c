/* png_speed.c: warplab-png.so, preloaded into the gnuplot that draws a run's charts
 * (plots/plot.c), to write its PNGs faster.
 *
 * gnuplot's pngcairo terminal has cairo write the PNG, which leaves libpng at its defaults:
 * every row tried with all five filters, and zlib at level 6. On a lab's charts that was 65%
 * of gnuplot's time (perf: libz 36%, libpng 29%; lab 04 draws 16 charts a run, 0.41 s of
 * CPU). As each PNG's header is set (png_set_IHDR), this also sets the Sub filter and zlib
 * level 1: the same pixels, 4% more bytes, half of gnuplot's CPU time (0.19 s for lab 04's).
 *
 * It names libpng's functions itself (dlsym) rather than including png.h, so it builds
 * without libpng's headers; where gnuplot writes PNGs another way (libgd's png terminal, a
 * static libpng) nothing calls it and nothing changes. Built apart from libwarplab.a, with
 * no sanitizer: it runs inside gnuplot, not in warplab.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

typedef void *png_structp;
typedef void *png_infop;
typedef unsigned int png_uint_32;

#define FILTER_SUB 0x10        /* PNG_FILTER_SUB */
#define LEVEL_FAST 1           /* Z_BEST_SPEED */

void png_set_IHDR(png_structp png, png_infop info, png_uint_32 width, png_uint_32 height,
                  int bit_depth, int color_type, int interlace, int compression, int filter);

void png_set_IHDR(png_structp png, png_infop info, png_uint_32 width, png_uint_32 height,
                  int bit_depth, int color_type, int interlace, int compression, int filter)
{
  static void (*real)(png_structp, png_infop, png_uint_32, png_uint_32, int, int, int, int,
                      int);
  static void (*set_filter)(png_structp, int, int);
  static void (*set_level)(png_structp, int);
  if (!real) {
    *(void **)&set_filter = dlsym(RTLD_NEXT, "png_set_filter");
    *(void **)&set_level = dlsym(RTLD_NEXT, "png_set_compression_level");
    *(void **)&real = dlsym(RTLD_NEXT, "png_set_IHDR");
  }
  if (!real)
    return;
  real(png, info, width, height, bit_depth, color_type, interlace, compression, filter);
  if (set_filter)
    set_filter(png, 0, FILTER_SUB);
  if (set_level)
    set_level(png, LEVEL_FAST);
}
