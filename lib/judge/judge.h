/* Judging expectations on captured pixels. No CDP here: frames in, verdicts
 * out, so every rule is testable on PNG fixtures alone. */
#ifndef SC_JUDGE_H
#define SC_JUDGE_H

#include <stdint.h>

#include "core/regex.h"
#include "image/pack.h"
#include "stepcheck/image.h"
#include "stepcheck/scenario.h"
#include "stepcheck/text.h"
#include "scenario/model.h"

/* A capture of guest rectangle clip; pixel (0,0) is guest (clip.x, clip.y).
 * Its pixels are decoded (img), packed (pk: held between uses, a fraction
 * of the size on a flat screen), or both. */
typedef struct sc__frame {
  sc_image *img;
  sc__packed pk;
  sc_rect clip;
  uint64_t rawhash; /* sc__hash64 of the capture as received (encoded); 0 none */
  size_t rawlen;
} sc__frame;

/* Free a frame's pixels; the frame is left empty. */
void sc__frame_free(sc__frame *f);
/* Move src into dst (dst freed first); src is left empty. */
void sc__frame_move(sc__frame *dst, sc__frame *src);
/* Hold f packed: pack its pixels (unless packed already) and free the
 * decoded ones. 0 or negative (f unchanged). */
int sc__frame_hold(sc__frame *f);
/* Make sure f's pixels are decoded (unpack when held packed). */
int sc__frame_pixels(sc__frame *f);
/* A frame's pixels or nothing. */
static inline int sc__frame_has(const sc__frame *f) { return f && (f->img || f->pk.data); }

/* Pixels of guest rect r of frame f, decoded or packed: *img and *sub
 * point into f's image when it is decoded; else r alone is unpacked into a
 * new image, *tmp (the caller frees it; NULL otherwise). 0; -1 when r is
 * not inside f (no message); negative sc_error when unpacking failed. */
int sc__frame_view(const sc__frame *f, sc_rect r, const sc_image **img, sc_rect *sub,
                   sc_image **tmp);

/* A scale-bar reading reduced to what judging needs. */
typedef struct sc__scale {
  int ok;              /* 1 when read */
  double mpp;          /* metres per pixel */
  double rel_err;      /* relative error bound of mpp */
  char text[48];       /* "100.0 m" */
  double bar_px;
  char why[160];       /* when !ok */
} sc__scale;

/* Made once per scenario (prep.c): every text expectation's compiled
 * pattern and glyph set. */
typedef struct sc__judge_prep sc__judge_prep;
/* 0, or SC_ENOMEM. A bad pattern or unloadable set is not an error here:
 * it is that expectation's reason when judged. */
int sc__judge_prep_new(sc__judge_prep **out, const sc_scenario *s);
void sc__judge_prep_free(sc__judge_prep *p);
/* e's glyph set (NULL with *why when it did not load) and pattern (NULL
 * when e has none, or with *why when it did not compile); -1 when e was
 * not prepared. */
int sc__judge_prep_text(const sc__judge_prep *p, const sc_expect *e, const sc_glyphset **gs,
                        const sc__regex **re, const char **why);

/* What the judge may look up besides the frames. */
typedef struct sc__judge_ctx {
  const sc_scenario *s;
  const sc__frame *before;  /* pre-gesture capture (at rest) */
  const sc__frame *cur;     /* the capture being judged */
  const sc__frame *prev;    /* the capture before it, or NULL */
  /* named snapshot ("start" or a step id): NULL when unknown */
  const sc__frame *(*snapshot)(void *ud, const char *name);
  /* baseline PNG by resolved path: NULL when it cannot be loaded */
  const sc_image *(*baseline)(void *ud, const char *path);
  void *ud;
  const sc__scale *scale_before; /* per expectation index (scale kinds only) */
  double elapsed_ms;             /* since the first input, for messages */
  const sc__judge_prep *prep;    /* text patterns and glyph sets */
  /* per expectation index (colour kinds): the count on before, taken once
   * by the runner (sc__color_count); NULL: counted on before each time */
  const long *color_before;
} sc__judge_ctx;

/* Pixels of colour e->rgb (within e->color_tol) in guest rect r of f; -1
 * when r is not in f. */
long sc__color_count(const sc__frame *f, sc_rect r, const sc_expect *e);

typedef struct sc__verdict {
  int holds;          /* the expectation holds on cur */
  int shows_change;   /* cur shows a change this expectation expects (first_change) */
  long pixels;        /* differing / matching pixels counted */
  double factor;      /* scale: measured factor */
  char reason[256];   /* one line: why it holds or not */
  char scale_text[96];
} sc__verdict;

/* Sub-rectangle of frame f covering guest rect r; 0 when r is inside f. */
int sc__frame_sub(const sc__frame *f, sc_rect r, sc_rect *out);

/* Judge one expectation (index ei of step) on ctx->cur. */
int sc__judge_expect(sc__verdict *v, const sc_step *step, size_t ei, const sc__judge_ctx *ctx);

/* Guest rect r of f as a new image (the caller's). 0; -1 when r is not in
 * f; negative sc_error. */
int sc__frame_crop(sc_image **out, const sc__frame *f, sc_rect r);
/* Guest rect r as last seen: r of under (which must cover it), with the
 * part of r that over covers taken from over (over may be empty). *out is
 * new. 0; -1 when r is not inside under (no message); negative sc_error. */
int sc__frame_compose(sc_image **out, const sc__frame *under, const sc__frame *over, sc_rect r);
/* sc_image_diff over guest rect r of frames a and b (decoded or packed):
 * *n differing pixels, *diff the diff image when diff is not NULL. 0; -1
 * when r is not in both; negative sc_error. */
int sc__frame_diff(size_t *n, sc_image **diff, const sc__frame *a, const sc__frame *b, sc_rect r,
                   const sc_diff_options *o);
/* Two frames identical over guest rect r (exact bytes; decoded or packed). */
int sc__frame_equal(const sc__frame *a, const sc__frame *b, sc_rect r);

/* Read the scale bar in guest rect r of frame f with a profile. */
void sc__scale_read(sc__scale *out, const sc__frame *f, sc_rect r, const char *profile);

/* Read text in guest rect r of frame f with a glyph set; 0 or sc_error, text in buf. */
int sc__text_read(char *buf, size_t len, const sc__frame *f, sc_rect r, const sc_glyphset *gs);

#endif
