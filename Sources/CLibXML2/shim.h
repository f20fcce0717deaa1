#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with Foundation's own copy of ICU in
// Swift. Nothing here uses the converter structure those headers shape.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/parserInternals.h>

// xmlFree is a global function pointer, which Swift 6 will not read from arbitrary threads; this
// call reads it in C (libxml2 sets it once, before any parse).
static inline void forge_xmlFree(void *pointer) { xmlFree(pointer); }
