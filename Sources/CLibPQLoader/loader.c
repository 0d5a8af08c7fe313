#include "CLibPQLoader.h"
#include "libpq_header.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Every libpq function almanac uses: return type, name, parameters, arguments.
#define LIBPQ_FUNCTIONS(X, V) \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg)) \
    V(void, PQconninfoFree, (PQconninfoOption *options), (options)) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), (keywords, values, expand_dbname)) \
    X(PGconn *, PQconnectStartParams, (const char *const *keywords, const char *const *values, int expand_dbname), (keywords, values, expand_dbname)) \
    X(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), (conn)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    V(void, PQfinish, (PGconn *conn), (conn)) \
    X(int, PQsocket, (const PGconn *conn), (conn)) \
    X(int, PQserverVersion, (const PGconn *conn), (conn)) \
    X(const char *, PQparameterStatus, (const PGconn *conn, const char *name), (conn, name)) \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn)) \
    X(char *, PQdb, (const PGconn *conn), (conn)) \
    X(char *, PQuser, (const PGconn *conn), (conn)) \
    X(char *, PQhost, (const PGconn *conn), (conn)) \
    X(char *, PQport, (const PGconn *conn), (conn)) \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg)) \
    X(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
        const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), \
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(int, PQsetSingleRowMode, (PGconn *conn), (conn)) \
    X(int, PQconsumeInput, (PGconn *conn), (conn)) \
    X(int, PQisBusy, (PGconn *conn), (conn)) \
    X(int, PQflush, (PGconn *conn), (conn)) \
    X(int, PQsetnonblocking, (PGconn *conn, int arg), (conn, arg)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    X(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    V(void, PQclear, (PGresult *res), (res)) \
    X(PGcancel *, PQgetCancel, (PGconn *conn), (conn)) \
    V(void, PQfreeCancel, (PGcancel *cancel), (cancel)) \
    X(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize)) \
    X(char *, PQescapeIdentifier, (PGconn *conn, const char *str, size_t len), (conn, str, len)) \
    V(void, PQfreemem, (void *ptr), (ptr)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(int, PQlibVersion, (void), ())

// One pointer per function, filled once.
#define DECLARE_POINTER(ret, name, params, args) static ret (*pointer_##name) params;
LIBPQ_FUNCTIONS(DECLARE_POINTER, DECLARE_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failure_text[512];

static void open_library(void) {
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(failure_text, sizeof failure_text,
                 "PostgreSQL needs libpq (Debian: apt-get install libpq5): %s", reason ? reason : "libpq.so.5 not found");
        failure = failure_text;
        return;
    }
#define LOOK_UP(ret, name, params, args) \
    pointer_##name = (ret (*) params)dlsym(handle, #name); \
    if (!pointer_##name && !failure) { \
        snprintf(failure_text, sizeof failure_text, "this libpq is too old: it has no %s", #name); \
        failure = failure_text; \
    }
    LIBPQ_FUNCTIONS(LOOK_UP, LOOK_UP)
}

const char *almanac_libpq_open(void) {
    pthread_once(&once, open_library);
    return failure;
}

// Swift calls these only after almanac_libpq_open() returned NULL; anything else is a bug,
// and stops here rather than jumping through a null pointer.
static void require_library(const char *name) {
    if (almanac_libpq_open() != NULL) {
        fprintf(stderr, "almanac: %s called without libpq: %s\n", name, failure);
        abort();
    }
}

#define FORWARD(ret, name, params, args) \
    ret name params { require_library(#name); return pointer_##name args; }
#define FORWARD_VOID(ret, name, params, args) \
    void name params { require_library(#name); pointer_##name args; }
LIBPQ_FUNCTIONS(FORWARD, FORWARD_VOID)
