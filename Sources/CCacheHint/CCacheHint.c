// The module is its header's inline function; SwiftPM wants a source file in a C target.
#include "CCacheHint.h"
