#ifndef ALMANAC_CLIBPQLOADER_H
#define ALMANAC_CLIBPQLOADER_H

// Opens libpq (libpq.so.5) on first use. Linking it would load it and the twenty libraries
// it needs (OpenSSL, Kerberos, LDAP, GnuTLS…) at every start of almanac, about 3 ms and 400
// page faults, for scripts that never touch a database. The libpq functions almanac calls are
// defined in this target and forward to the library once it is open.
//
// Returns NULL when libpq is ready, else why it could not be opened (a static string).
const char *almanac_libpq_open(void);

#endif
