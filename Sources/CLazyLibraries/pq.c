// libpq, opened on first use: the functions the PostgreSQL store calls, as libpq-fe.h declares them.
#include "../CPostgres/shim.h"
#include "lazylib.h"
#include "CLazyLibraries.h"

#define LIBPQ_FUNCTIONS(F, V, S) \
    V(PQclear, (PGresult *res), (res)) \
    F(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
    F(int, PQenterPipelineMode, (PGconn *conn), (conn)) \
    F(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    F(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    F(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
                                   const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    F(int, PQexitPipelineMode, (PGconn *conn), (conn)) \
    V(PQfinish, (PGconn *conn), (conn)) \
    F(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    F(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num)) \
    F(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    F(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    F(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    F(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    F(int, PQnfields, (const PGresult *res), (res)) \
    F(int, PQntuples, (const PGresult *res), (res)) \
    F(int, PQpipelineSync, (PGconn *conn), (conn)) \
    F(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes)) \
    F(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    F(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    F(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
                               const char *const *paramValues, const int *paramLengths, const int *paramFormats, \
                               int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    F(int, PQsendPrepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes)) \
    F(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
                                 const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    F(ConnStatusType, PQstatus, (const PGconn *conn), (conn))

LAZYLIB_DEFINE(LIBPQ_FUNCTIONS, "libpq.so.5", "libpq5", "PostgreSQL stores")

const char *lazylib_load_libpq(void) { return lazylib_failure(&library); }
