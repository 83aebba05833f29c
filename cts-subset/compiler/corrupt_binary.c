/* compiler: damaged program binaries. A binary with bytes changed anywhere
 * (its header fields, its middle, its end), cut short at any length or
 * with bytes added is refused with CL_INVALID_BINARY (return code and
 * binary_status), or loads, builds and runs correctly; it never crashes the
 * process (every case runs in the one sub-test process), and refused
 * binaries leave nothing mapped. */
#include "harness.h"

static const char *src =
    "kernel void scale(global int *o, int k) { o[get_global_id(0)] = k * (int)get_global_id(0); }";

/* Lines of /proc/self/maps: what the process has mapped. */
static int mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    int n = 0, ch;
    while ((ch = fgetc(f)) != EOF) n += ch == '\n';
    fclose(f);
    return n;
}

struct run {
    cl_context c;
    cl_command_queue q;
    cl_device_id d;
    cl_mem out;
    size_t refused, loaded;
};

/* One damaged binary: refused, or it works. Returns 0 when wrong (and
 * records why). */
static int try_binary(struct run *r, const unsigned char *bin, size_t size, const char *what,
                      size_t at)
{
    cl_int status = 12345, e = 12345;
    const unsigned char *bins[1] = {bin};
    cl_program p = clCreateProgramWithBinary(r->c, 1, &r->d, &size, bins, &status, &e);
    if (!p) {
        r->refused++;
        CHECK(e == CL_INVALID_BINARY && status == CL_INVALID_BINARY,
              "%s at %zu: returned %s, binary_status %s", what, at, h_err(e), h_err(status));
        return e == CL_INVALID_BINARY && status == CL_INVALID_BINARY;
    }
    r->loaded++;
    int ok = e == CL_SUCCESS && status == CL_SUCCESS;
    CHECK(ok, "%s at %zu: a program, with %s and binary_status %s", what, at, h_err(e),
          h_err(status));
    cl_int be = clBuildProgram(p, 1, &r->d, NULL, NULL, NULL);
    if (be == CL_SUCCESS) {
        cl_kernel k = clCreateKernel(p, "scale", &e);
        CHECK(k, "%s at %zu: built, but no kernel: %s", what, at, h_err(e));
        if (k) {
            int factor = 7, res[64];
            size_t g = 64;
            clSetKernelArg(k, 0, sizeof r->out, &r->out);
            clSetKernelArg(k, 1, sizeof factor, &factor);
            CHECK_OK(clEnqueueNDRangeKernel(r->q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
            CHECK_OK(clEnqueueReadBuffer(r->q, r->out, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
            for (int i = 0; i < 64; i++) ok &= res[i] == 7 * i;
            CHECK(ok, "%s at %zu: loaded and ran, with wrong results", what, at);
            clReleaseKernel(k);
        }
    } else {
        CHECK(be == CL_INVALID_BINARY || be == CL_BUILD_PROGRAM_FAILURE,
              "%s at %zu: clBuildProgram returned %s", what, at, h_err(be));
    }
    clReleaseProgram(p);
    return ok;
}

TEST(damaged_binaries_are_refused_or_work)
{
    struct run r = {0};
    r.c = h_context();
    r.q = h_queue(r.c, 0);
    r.d = h_device();
    cl_int e;
    r.out = clCreateBuffer(r.c, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &e);
    cl_program p = h_build(r.c, src, NULL);
    REQUIRE(p, "build");
    size_t size = 0;
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    REQUIRE(size > 64, "binary size %zu", size);
    unsigned char *bin = malloc(size), *bad = malloc(size + 64);
    unsigned char *bins[1] = {bin};
    CHECK_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    clReleaseProgram(p);
    /* The intact binary works. */
    REQUIRE(try_binary(&r, bin, size, "intact", 0), "the intact binary");
    REQUIRE(r.loaded == 1, "the intact binary was refused");
    int before = mappings();
    /* Bytes changed: every one of the first 256 (header and metadata),
     * the last 256, and 400 spread over the rest, three ways each. */
    static const unsigned char flips[3] = {0x01, 0x80, 0xff};
    for (size_t at = 0; at < size && !h_failed(); at++) {
        if (at >= 256 && at + 256 < size && at % (size / 400 + 1) != 0) continue;
        for (int f = 0; f < 3 && !h_failed(); f++) {
            memcpy(bad, bin, size);
            bad[at] ^= flips[f];
            try_binary(&r, bad, size, "changed byte", at);
        }
    }
    /* Cut short: every length up to 256, the last 256, 300 in between. */
    for (size_t len = 1; len < size && !h_failed(); len++) {
        if (len >= 256 && len + 256 < size && len % (size / 300 + 1) != 0) continue;
        try_binary(&r, bin, len, "cut at", len);
    }
    /* Bytes added at the end. */
    memcpy(bad, bin, size);
    memset(bad + size, 0x5a, 64);
    for (size_t extra = 1; extra <= 64 && !h_failed(); extra *= 2)
        try_binary(&r, bad, size + extra, "bytes added", extra);
    int after = mappings();
    CHECK(after <= before + 16, "%d mappings before the damaged binaries, %d after", before,
          after);
    if (!h_failed()) printf("# %zu refused, %zu loaded\n", r.refused, r.loaded);
    free(bin);
    free(bad);
    clReleaseMemObject(r.out);
    clReleaseCommandQueue(r.q);
    clReleaseContext(r.c);
}

int main(int argc, char **argv)
{
    h_init("compiler_corrupt_binary", argc, argv);
    H_RUN_T(damaged_binaries_are_refused_or_work, 240);
    return h_done();
}
