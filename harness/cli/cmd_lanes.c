/* cmd_lanes.c: `warplab lanes LOG KIND`: draw a picture of one warp from a lane log that
 * `warplab emu --lanes` wrote, for handouts and for looking at any kernel by hand (a lab's
 * own lane charts are drawn by `warplab run`, from lab.json's "lane_charts").
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/warplab.h"
#include "plots/plot.h"
#include "plots/plot_lanes.h"

static void lanes_usage(FILE *f)
{
  fputs("usage: warplab lanes LOG sectors|banks|timeline [--line N|TEXT] [--access load|store]\n"
        "         [--out DIR] [--name NAME] [--title TEXT] [--subtitle TEXT]\n"
        "\n"
        "Draws a picture of the warp that LOG (from warplab emu --lanes) recorded, as\n"
        "DIR/NAME.png and .svg, with its data (.dat) and gnuplot script (.gp) beside them:\n"
        "  sectors   one global access: lane against the 32-byte sector its bytes fall in,\n"
        "            coloured by how much of the sector the warp uses; the title counts the\n"
        "            distinct sectors (the emulator's count for that instruction)\n"
        "  banks     one shared access: lane against bank, coloured by how many different\n"
        "            words the bank serves; the title gives the wavefronts\n"
        "  timeline  every step: which lanes ran it, coloured by source line\n"
        "--line N|TEXT: the access on source line N, or on the first line holding TEXT\n"
        "        (default: the warp's first global (sectors) or shared (banks) access)\n"
        "--access load|store: only loads, or only stores\n"
        "--out DIR: where the files go (default: the folder of LOG); --name NAME: their name\n"
        "        (default: the kind)\n", f);
  wl_print_exit_codes();
}

int wl_cmd_lanes(int argc, char **argv)
{
  static const struct option longopts[] = {
    {"line", required_argument, 0, 'l'}, {"access", required_argument, 0, 'a'},
    {"out", required_argument, 0, 'o'}, {"name", required_argument, 0, 'n'},
    {"title", required_argument, 0, 't'}, {"subtitle", required_argument, 0, 's'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
  };
  struct plot_lanes_spec s;
  memset(&s, 0, sizeof s);
  const char *out = NULL, *name = NULL;
  optind = 1;
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'l': {
      char *end;
      errno = 0;
      unsigned long v = strtoul(optarg, &end, 10);
      if (optarg[0] >= '1' && optarg[0] <= '9' && !*end && !errno && v < 1000000)
        s.line = (uint32_t)v;
      else if (optarg[0] && strlen(optarg) < sizeof s.marker)
        snprintf(s.marker, sizeof s.marker, "%s", optarg);
      else {
        wl_error("--line '%s': expected a source line number or a text of the line", optarg);
        return WL_EXIT_USAGE;
      }
      break;
    }
    case 'a':
      if (!strcmp(optarg, "load"))
        s.access = RUN_LANES_LOAD;
      else if (!strcmp(optarg, "store"))
        s.access = RUN_LANES_STORE;
      else {
        wl_error("--access '%s': expected load or store", optarg);
        return WL_EXIT_USAGE;
      }
      break;
    case 'o': out = optarg; break;
    case 'n': name = optarg; break;
    case 't': snprintf(s.title, sizeof s.title, "%s", optarg); break;
    case 's': snprintf(s.subtitle, sizeof s.subtitle, "%s", optarg); break;
    case 'h': lanes_usage(stdout); return WL_EXIT_OK;
    default:
      wl_error("lanes: unknown or incomplete option '%s' (see warplab lanes --help)",
               argv[optind - 1]);
      return WL_EXIT_USAGE;
    }
  }
  if (argc - optind != 2) {
    wl_error("lanes: expected a lane log and a kind (see warplab lanes --help)");
    return WL_EXIT_USAGE;
  }
  const char *log = argv[optind], *kind = argv[optind + 1];
  if (!strcmp(kind, "sectors"))
    s.kind = RUN_LANES_SECTORS;
  else if (!strcmp(kind, "banks"))
    s.kind = RUN_LANES_BANKS;
  else if (!strcmp(kind, "timeline"))
    s.kind = RUN_LANES_TIMELINE;
  else {
    wl_error("lanes: kind '%s': expected sectors, banks or timeline", kind);
    return WL_EXIT_USAGE;
  }
  if (!name)
    name = kind;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '-' || *p == '_')) {
      wl_error("--name '%s': letters, digits, '-' and '_' only (it names files)", name);
      return WL_EXIT_USAGE;
    }
  char dir[1024];
  if (out) {
    snprintf(dir, sizeof dir, "%s", out);
  } else {
    const char *slash = strrchr(log, '/');
    snprintf(dir, sizeof dir, "%.*s", !slash ? 1 : slash == log ? 1 : (int)(slash - log),
             slash ? log : ".");
  }
  char err[1024];
  int st = plot_lanes_draw(log, &s, dir, name, err, sizeof err);
  if (st == PLOT_OK) {
    printf("%s/%s.png\n", dir, name);
    return WL_EXIT_OK;
  }
  wl_error("%s", err);
  return st == PLOT_NO_GNUPLOT ? WL_EXIT_OK : WL_EXIT_USAGE;
}
