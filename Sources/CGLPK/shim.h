// GNU Linear Programming Kit (Debian libglpk-dev): the MIP solver behind plan-fleet's exact shift plan.
#include <glpk.h>
