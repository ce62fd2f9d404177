/* Vendored LEMON 1.3.1 (Boost Software License 1.0, see LICENSE.LEMON): a minimal config for
   the header-only matching code; no LP solvers and no threads are needed. */
#define LEMON_VERSION "1.3.1"
#define LEMON_HAVE_LONG_LONG 1
