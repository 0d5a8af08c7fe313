// libpq's client header, for declarations only: nothing links libpq (see CLibPQLoader).
// Debian and Ubuntu keep it in /usr/include/postgresql (what `pkg-config --cflags libpq` says),
// other systems in /usr/include.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
