/* `stepcheck COMMAND --help` and `stepcheck help COMMAND`: one page per
 * subcommand, on stdout. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char k_exit[] =
    "\nexit codes: 0 ok, 1 a step failed or a locator found nothing, 2 usage or\n"
    "configuration error, 3 browser or infrastructure error (with --users too: any\n"
    "user stopped by the browser, its renderer, the connection or a missing canvas)\n";

typedef struct help_page {
  const char *cmd, *text;
} help_page;

static const help_page k_pages[] = {
    {"run",
     "usage: stepcheck run SCENARIO [options]\n"
     "\n"
     "Open the scenario's page, run its setup steps, then its cycle of steps,\n"
     "and judge every step on the pixels. Prints one line per step and a\n"
     "summary; a run whose steps were not all verified says VOID.\n"
     "\n"
     "  --url URL              drive URL instead of the scenario's url; repeat for\n"
     "                         one server per user (user i opens the i-th URL, the\n"
     "                         warm-up the first; --users defaults to their count)\n"
     "  --allow-url-scheme S   let --url be a file: or data: URL (default: http, https)\n"
     "  --cycles N             cycles to run (default 1)\n"
     "  --report DIR           report.json, report.html (one page: verdicts,\n"
     "                         timings, timelines, chart, images) and the failure\n"
     "                         images (before/after/diff) beside it\n"
     "  --frames SIZE|all|guest|failures\n"
     "                         also keep passed steps' before/after frames of their\n"
     "                         regions in --report DIR, shown as thumbnails, until\n"
     "                         SIZE bytes of them were written (K, M, G: KiB, MiB,\n"
     "                         GiB; e.g. 50M); all: no limit; guest: all, and the\n"
     "                         whole guest before and after every step (two more\n"
     "                         captures a step; one user); failures: only failed\n"
     "                         steps' images (the default)\n"
     "  --report-json FILE     the JSON report only\n"
     "  --junit FILE           JUnit XML (one testsuite per user)\n"
     "  --jtl FILE             JMeter JTL (CSV)\n"
     "  --browser ENDPOINT     attach to a running browser (host:port or ws://...;\n"
     "                         repeat to spread users); default: launch one\n"
     "  --allow-remote         allow a browser or grid beyond loopback\n"
     "  --rest paint-log|pairs how the screen is proven at rest (default: the\n"
     "                         scenario's \"rest\", else paint-log: the page's own\n"
     "                         log of its paints; pairs: two identical screenshots)\n"
     "  --canvas SELECTOR      the guest canvas's CSS selector (default: the\n"
     "                         scenario's \"canvas\", else the largest visible one)\n"
     "  --quiet, -q            no per-step lines\n"
     "\n"
     "many users from this process:\n"
     "  --users N              users in all (at most 1000; checked with the memory,\n"
     "                         /dev/shm and open files the machine has before any\n"
     "                         browser starts)\n"
     "  --ramp K --every S     add K users every S seconds\n"
     "  --duration S           run for S seconds instead of --cycles\n"
     "  --warmup C             cycles of the one-user warm-up (default 2; 0 none)\n"
     "  --users-per-browser M  users per launched browser\n"
     "  --grid http://H:P      one browser per WebDriver session on a Selenium Grid 4\n"
     "\n"
     "Ctrl-C, SIGTERM or SIGHUP end the current step, write the reports (VOID)\n"
     "and stop every browser this run launched.\n"},
    {"validate",
     "usage: stepcheck validate SCENARIO\n"
     "\n"
     "Check a scenario file without a browser: its JSON, every field, regions\n"
     "inside the guest, names it refers to. Prints file:line:col: message for\n"
     "each problem.\n"},
    {"capture",
     "usage: stepcheck capture --url URL -o OUT.png [options]\n"
     "\n"
     "Screenshot the page's canvas, or a region of it, as PNG: also the way to\n"
     "cut a template for a locator (docs/scenario.md, \"Locators\").\n"
     "\n"
     "  --url URL              the page\n"
     "  -o, --output FILE      where the PNG goes\n"
     "  --viewport WxH         browser viewport (default 1600x940)\n"
     "  --guest WxH            expected canvas size (default: any)\n"
     "  --region x,y,w,h       a region of the canvas (default: all of it)\n"
     "  --scale PERCENT        1..100 (default 100)\n"
     "  --keep RRGGBB[,TOL]    keep only pixels within TOL (default 64) of the\n"
     "                         colour; the rest become transparent (a template\n"
     "                         of text or ink on a background that varies)\n"
     "  --allow-url-scheme S   also open file: or data: URLs (default: http, https)\n"
     "  --settle MS            capture once the region shows more than one colour\n"
     "                         and is unchanged over MS (captures MS apart); a\n"
     "                         remote client (noVNC) paints after the page has\n"
     "                         loaded. 0: capture at once (default 500)\n"
     "  --timeout MS           page load and canvas wait, and the wait for\n"
     "                         --settle after it (default 30000)\n"},
    {"inspect",
     "usage: stepcheck inspect SCENARIO [--url URL] [--canvas SELECTOR] -o OUT.png\n"
     "\n"
     "Open the scenario's page, wait until the guest is at rest, capture it and\n"
     "draw every region (outline and name), point (cross and name) and the park\n"
     "point on it, with a ruler of guest coordinates. Prints each point with the\n"
     "colour under it and each region with its size. Locators are found first\n"
     "(\"located point building_a at 618.5,535 score 1.000\") and everything is\n"
     "drawn where they found it. One that is not found (or is ambiguous) exits\n"
     "1 after writing the picture anyway, its best candidates outlined in red\n"
     "with their scores (\"candidate 1 for building_a at 545,496 19x14 score\n"
     "0.712\").\n"
     "\n"
     "  --url URL              open URL instead of the scenario's url\n"
     "  --allow-url-scheme S   also open file: or data: URLs (default: http, https)\n"
     "  --canvas SELECTOR      the guest canvas (default: the scenario's \"canvas\")\n"
     "  -o, --output FILE      where the PNG goes\n"},
    {"cut",
     "usage: stepcheck cut (SCENARIO | --url URL) -o DIR NAME=x,y,w,h[:RRGGBB[,TOL]]...\n"
     "\n"
     "Open the page once, wait until the guest is at rest, and cut every\n"
     "NAME=x,y,w,h (guest coordinates) from that one capture into DIR/NAME.png.\n"
     "Each is searched on the same capture as a locator would search it\n"
     "(\"b94: found once at 609,528 (score 1.000; next best 0.977 at 545,560)\");\n"
     "the locator JSON to paste is printed on stdout. Exit 1 when one would not\n"
     "be found in exactly one place.\n"
     "\n"
     "  --url URL              open URL (instead of the scenario's url)\n"
     "  --keep RRGGBB[,TOL]    keep only pixels near this colour in every cut\n"
     "                         (the rest transparent); :RRGGBB[,TOL] after a cut\n"
     "                         for that one only\n"
     "  --viewport WxH         browser viewport without a scenario\n"
     "  --allow-url-scheme S   also open file: or data: URLs (default: http, https)\n"
     "  -o, --output DIR       an existing folder for the PNGs\n"},
    {"glyphs",
     "usage: stepcheck glyphs learn --text TEXT IMAGE --region x,y,w,h [options] -o SET\n"
     "\n"
     "Learn the glyphs of TEXT from a labelled crop of IMAGE into glyph set SET\n"
     "(created, or extended when it exists).\n"
     "\n"
     "  --ink RRGGBB           the text colour (default ffffff)\n"
     "  --tol N                colour tolerance 0..255\n"
     "  --variants N           keep up to N masks per glyph (anti-aliased text\n"
     "                         at fractional positions, e.g. a browser's)\n"},
    {"ocr",
     "usage: stepcheck ocr IMAGE --glyphs SET [--region x,y,w,h]\n"
     "\n"
     "Read text in IMAGE with glyph set SET (a builtin name or a file).\n"},
    {"read-scale",
     "usage: stepcheck read-scale IMAGE [--region x,y,w,h] [--profile NAME|FILE]\n"
     "\n"
     "Read a scale bar: its text, bar length and metres per pixel with its\n"
     "error bound. --profile: a builtin (josm, the default; gpsprune,\n"
     "leaflet, leaflet-imperial, openlayers, openlayers-bar), a scale-bar\n"
     "profile file (ending in .json; format in docs/text.md), or a .glyphs\n"
     "file (JOSM's layout in that font). An\n"
     "unreadable bar exits 2 naming the profile's rule that did not hold.\n"},
    {"scale",
     "usage: stepcheck scale learn --layout NAME|FILE -o OUT.json IMAGE=LABEL[@M_PER_PX]...\n"
     "                             [--region x,y,w,h] [--ink RRGGBB] [--tol N]\n"
     "                             [--variants N] [--name NAME]\n"
     "\n"
     "Make a scale-bar profile for an application whose bar is drawn like a\n"
     "known layout (a builtin or a profile file: same shape, label placement,\n"
     "series, number format and units) from captures at known labels: the\n"
     "glyphs of each label are learned where the layout draws them, the\n"
     "label's baseline and distance from the tick are measured and must\n"
     "agree across the samples, OUT.json and OUT.glyphs are written, and\n"
     "every sample is read back through OUT.json (with @M_PER_PX, its metres\n"
     "per pixel must lie within the bound). Touching glyphs go in brackets\n"
     "(\"100 [ft]\"). Without --ink, the layout's label colour and tolerance.\n"
     "Exit 1 when a sample does not read back as given.\n"},
};

int cli_help(const char *cmd) {
  for (size_t i = 0; i < sizeof k_pages / sizeof *k_pages; i++)
    if (!strcmp(k_pages[i].cmd, cmd)) {
      fputs(k_pages[i].text, stdout);
      fputs(k_exit, stdout);
      return EXIT_OK;
    }
  return cli_err(EXIT_USAGE, "no help for unknown command '%s' (see stepcheck --help)", cmd);
}

int cli_wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
  return 0;
}
