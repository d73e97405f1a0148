/* PNG bytes into a file, for the layers above that encode first and decide
 * afterwards (the runner's frame budget weighs the sizes before writing).
 * Internal. */
#ifndef SC_IMAGE_PNG_FILE_H
#define SC_IMAGE_PNG_FILE_H

#include <stddef.h>

/* Write len bytes of an encoded PNG (sc_image_encode_png) to path, written
 * to path.tmp then renamed (readers never see half a file); only a regular
 * file is replaced (sc__out_check). 0, SC_EIO or SC_ENOMEM, the message
 * naming the path. sc_image_save_png is this after the encoding. */
int sc__png_write(const char *path, const void *png, size_t len);

#endif
