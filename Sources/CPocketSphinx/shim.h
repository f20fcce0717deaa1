#include <pocketsphinx.h>
#include <err.h>
#include <cmd_ln.h>
