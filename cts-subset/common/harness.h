/* ferrocl cts-subset: tiny test harness.
 *
 * Each program defines sub-tests with TEST(name) { ... } and runs them from
 * main() with H_RUN(name).  Every sub-test prints exactly one line:
 *     PASS suite/name
 *     FAIL suite/name: reason
 *     SKIP suite/name: reason        (counts as neither)
 *
 * By default every sub-test runs in a forked child process (the parent never
 * touches OpenCL), so a crash or hang in one sub-test is reported as a FAIL of
 * that sub-test and the others still run.  Set CTS_NOFORK=1 to run everything
 * in one process (handy under a debugger).
 */
#ifndef FERROCL_CTS_HARNESS_H
#define FERROCL_CTS_HARNESS_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- failure recording ------------------------------------------------- */
void h_fail_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void h_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int h_failed(void);  /* non-zero once the current sub-test has failed */
int h_skipped(void);
const char *h_err(cl_int err); /* "CL_INVALID_VALUE (-30)" */

/* CHECK(cond, fmt, ...): record a failure (first reason is reported) and go on. */
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) h_fail_at(__FILE__, __LINE__, __VA_ARGS__);             \
    } while (0)

/* REQUIRE(cond, fmt, ...): like CHECK but returns from the sub-test. */
#define REQUIRE(cond, ...)                                                   \
    do {                                                                     \
        if (!(cond)) {                                                       \
            h_fail_at(__FILE__, __LINE__, __VA_ARGS__);                      \
            return;                                                          \
        }                                                                    \
    } while (0)

/* CHECK_ERR(call, expected): the call's cl_int result must equal expected. */
#define CHECK_ERR(call, expected)                                            \
    do {                                                                     \
        cl_int h_e_ = (call);                                                \
        cl_int h_x_ = (expected);                                            \
        if (h_e_ != h_x_)                                                    \
            h_fail_at(__FILE__, __LINE__, "%s returned %s, expected %s",     \
                      #call, h_err(h_e_), h_err(h_x_));                      \
    } while (0)

/* REQUIRE_OK(call): call must return CL_SUCCESS, else fail and return. */
#define REQUIRE_OK(call)                                                     \
    do {                                                                     \
        cl_int h_e_ = (call);                                                \
        if (h_e_ != CL_SUCCESS) {                                            \
            h_fail_at(__FILE__, __LINE__, "%s returned %s", #call,           \
                      h_err(h_e_));                                          \
            return;                                                          \
        }                                                                    \
    } while (0)

#define CHECK_OK(call) CHECK_ERR(call, CL_SUCCESS)

/* Check an errcode_ret-style result: object must be NULL iff error. */
#define CHECK_CREATE_FAILS(obj, err, expected)                               \
    do {                                                                     \
        CHECK((obj) == NULL, "%s: expected NULL object on error", #obj);     \
        CHECK((err) == (expected), "%s: errcode %s, expected %s", #obj,      \
              h_err(err), h_err(expected));                                  \
    } while (0)

/* ---- sub-test registration --------------------------------------------- */
typedef void (*h_test_fn)(void);
void h_init(const char *suite, int argc, char **argv);
void h_run(const char *name, h_test_fn fn, int timeout_s);
int h_done(void); /* returns exit status for main */

#define TEST(name) static void test_##name(void)
#define H_RUN(name) h_run(#name, test_##name, 20)
#define H_RUN_T(name, secs) h_run(#name, test_##name, secs)

/* ---- OpenCL environment ------------------------------------------------ */
/* First platform the loader lists, its first CPU device (lazily, in the
 * sub-test process).  These fail the sub-test and return NULL on error. */
cl_platform_id h_platform(void);
cl_device_id h_device(void);
cl_context h_context(void); /* new context on h_device(); caller releases */
cl_command_queue h_queue(cl_context ctx, cl_command_queue_properties props);
/* A program built from source for h_device(), or NULL with the build log on
 * stderr. */
cl_program h_build(cl_context ctx, const char *src, const char *options);

/* Device capabilities. */
int h_has_native(void);     /* CL_EXEC_NATIVE_KERNEL */
cl_uint h_compute_units(void);
cl_device_svm_capabilities h_svm_caps(void);
int h_has_ooo(void);        /* out-of-order host queues */
/* Convenience: SKIP if no native kernels. Use as `if (!h_need_native()) return;` */
int h_need_native(void);

/* Native-kernel helper: runs fn(arg) on the device.  arg is passed through
 * unchanged (the pointer value is copied into the args block). */
typedef void (*h_native_fn)(void *arg);
cl_int h_enqueue_native(cl_command_queue q, h_native_fn fn, void *arg,
                        cl_uint nwait, const cl_event *wait, cl_event *ev);

/* Info helpers. */
char *h_device_string(cl_device_id d, cl_device_info p); /* malloc'd or NULL */
char *h_platform_string(cl_platform_id p, cl_platform_info q);
cl_int h_event_status(cl_event e); /* CL_EXEC_STATUS or error code */
cl_uint h_event_refcount(cl_event e);

/* Time / sleeping. */
double h_now(void);          /* seconds, monotonic */
void h_sleep_ms(int ms);
/* Poll until *flag (an int read atomically) is >= want or timeout (seconds). */
int h_wait_int(volatile int *flag, int want, double timeout_s);

#ifdef __cplusplus
}
#endif
#endif
