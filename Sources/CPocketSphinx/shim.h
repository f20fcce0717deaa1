#include <pocketsphinx.h>
#include <err.h>
#include <cmd_ln.h>
#include <fsg_model.h>
#include <logmath.h>
#include <fe.h>
