/* api/platform: clGetPlatformIDs and clGetPlatformInfo. */
#include "harness.h"

static const struct { cl_platform_info p; const char *n; } str_params[] = {
    {CL_PLATFORM_PROFILE, "CL_PLATFORM_PROFILE"},
    {CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION"},
    {CL_PLATFORM_NAME, "CL_PLATFORM_NAME"},
    {CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR"},
    {CL_PLATFORM_EXTENSIONS, "CL_PLATFORM_EXTENSIONS"},
    {CL_PLATFORM_ICD_SUFFIX_KHR, "CL_PLATFORM_ICD_SUFFIX_KHR"},
};

TEST(platform_get_platform_ids)
{
    cl_uint n = 0;
    REQUIRE_OK(clGetPlatformIDs(0, NULL, &n));
    REQUIRE(n >= 1, "no platforms");
    cl_platform_id p[16] = {0};
    cl_uint n2 = 0;
    CHECK_OK(clGetPlatformIDs(16, p, &n2));
    CHECK(n2 == n, "count changed %u vs %u", n2, n);
    CHECK(p[0] != NULL, "NULL platform returned");
    CHECK_ERR(clGetPlatformIDs(0, p, NULL), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
    cl_platform_id one = NULL;
    CHECK_OK(clGetPlatformIDs(1, &one, NULL));
    CHECK(one == p[0], "first platform differs between calls");
}

TEST(platform_string_queries)
{
    cl_platform_id pl = h_platform();
    REQUIRE(pl, "no platform");
    for (size_t i = 0; i < sizeof str_params / sizeof str_params[0]; i++) {
        size_t sz = 0;
        cl_int e = clGetPlatformInfo(pl, str_params[i].p, 0, NULL, &sz);
        CHECK(e == CL_SUCCESS, "%s size query: %s", str_params[i].n, h_err(e));
        if (e != CL_SUCCESS) continue;
        CHECK(sz >= 1, "%s: size_ret %zu", str_params[i].n, sz);
        char *buf = malloc(sz + 16);
        memset(buf, 'X', sz + 16);
        size_t sz2 = 0;
        CHECK_OK(clGetPlatformInfo(pl, str_params[i].p, sz + 16, buf, &sz2));
        CHECK(sz2 == sz, "%s: size_ret %zu then %zu", str_params[i].n, sz, sz2);
        CHECK(buf[sz - 1] == 0, "%s not NUL terminated at size_ret-1",
              str_params[i].n);
        CHECK(strlen(buf) + 1 == sz, "%s: strlen %zu but size_ret %zu",
              str_params[i].n, strlen(buf), sz);
        /* exact size works, size_ret may be NULL */
        CHECK_OK(clGetPlatformInfo(pl, str_params[i].p, sz, buf, NULL));
        /* too small -> CL_INVALID_VALUE */
        CHECK_ERR(clGetPlatformInfo(pl, str_params[i].p, sz - 1, buf, NULL),
                  CL_INVALID_VALUE);
        /* NULL param_value with non-zero size is allowed (value ignored) */
        CHECK_OK(clGetPlatformInfo(pl, str_params[i].p, sz, NULL, NULL));
        free(buf);
    }
}

TEST(platform_profile_and_version)
{
    cl_platform_id pl = h_platform();
    REQUIRE(pl, "no platform");
    char *prof = h_platform_string(pl, CL_PLATFORM_PROFILE);
    char *ver = h_platform_string(pl, CL_PLATFORM_VERSION);
    REQUIRE(prof && ver, "string queries failed");
    CHECK(!strcmp(prof, "FULL_PROFILE") || !strcmp(prof, "EMBEDDED_PROFILE"),
          "bad profile '%s'", prof);
    CHECK(!strncmp(ver, "OpenCL 3.0 ", 11), "version '%s' does not start with "
          "'OpenCL 3.0 '", ver);
    cl_version nv = 0;
    size_t sz = 0;
    CHECK_OK(clGetPlatformInfo(pl, CL_PLATFORM_NUMERIC_VERSION, sizeof nv, &nv, &sz));
    CHECK(sz == sizeof(cl_version), "numeric version size %zu", sz);
    CHECK(CL_VERSION_MAJOR(nv) == 3 && CL_VERSION_MINOR(nv) == 0,
          "numeric version %u.%u", CL_VERSION_MAJOR(nv), CL_VERSION_MINOR(nv));
    CHECK_ERR(clGetPlatformInfo(pl, CL_PLATFORM_NUMERIC_VERSION, sizeof nv - 1,
                                &nv, NULL), CL_INVALID_VALUE);
    free(prof);
    free(ver);
}

TEST(platform_extensions_with_version)
{
    cl_platform_id pl = h_platform();
    REQUIRE(pl, "no platform");
    char *ext = h_platform_string(pl, CL_PLATFORM_EXTENSIONS);
    REQUIRE(ext, "no extension string");
    size_t sz = 0;
    REQUIRE_OK(clGetPlatformInfo(pl, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, NULL, &sz));
    CHECK(sz % sizeof(cl_name_version) == 0, "size %zu not a multiple", sz);
    size_t n = sz / sizeof(cl_name_version);
    cl_name_version *nv = calloc(n + 1, sizeof *nv);
    CHECK_OK(clGetPlatformInfo(pl, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sz, nv, NULL));
    /* every entry is in the string and vice versa */
    size_t words = 0;
    char *copy = strdup(ext), *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        words++;
        int found = 0;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(nv[i].name, w)) found = 1;
        CHECK(found, "extension '%s' missing from EXTENSIONS_WITH_VERSION", w);
    }
    CHECK(words == n, "%zu extensions in string, %zu with version", words, n);
    for (size_t i = 0; i < n; i++) {
        size_t l = strnlen(nv[i].name, CL_NAME_VERSION_MAX_NAME_SIZE);
        CHECK(l > 0 && l < CL_NAME_VERSION_MAX_NAME_SIZE, "entry %zu bad name", i);
        const char *hit = strstr(ext, nv[i].name);
        CHECK(hit, "'%s' not in extension string", nv[i].name);
    }
    CHECK(strstr(ext, "cl_khr_icd") != NULL, "platform must report cl_khr_icd");
    if (sz) {
        CHECK_ERR(clGetPlatformInfo(pl, CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                                    sz - 1, nv, NULL), CL_INVALID_VALUE);
    }
    free(copy);
    free(nv);
    free(ext);
}

TEST(platform_icd_suffix)
{
    cl_platform_id pl = h_platform();
    REQUIRE(pl, "no platform");
    char *s = h_platform_string(pl, CL_PLATFORM_ICD_SUFFIX_KHR);
    REQUIRE(s, "CL_PLATFORM_ICD_SUFFIX_KHR query failed");
    CHECK(strlen(s) > 0, "empty suffix");
    for (char *p = s; *p; p++)
        CHECK((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
              (*p >= '0' && *p <= '9') || *p == '_', "odd suffix '%s'", s);
    free(s);
}

TEST(platform_host_timer_resolution)
{
    cl_platform_id pl = h_platform();
    REQUIRE(pl, "no platform");
    cl_ulong r = 12345;
    size_t sz = 0;
    CHECK_OK(clGetPlatformInfo(pl, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof r, &r, &sz));
    CHECK(sz == sizeof(cl_ulong), "size_ret %zu", sz);
    CHECK(r != 12345, "value not written");
    CHECK_ERR(clGetPlatformInfo(pl, CL_PLATFORM_HOST_TIMER_RESOLUTION, 4, &r, NULL),
              CL_INVALID_VALUE);
}

TEST(platform_invalid_param)
{
    cl_platform_id pl = h_platform();
    REQUIRE(pl, "no platform");
    char buf[64];
    size_t sz = 0;
    CHECK_ERR(clGetPlatformInfo(pl, 0x1234567, sizeof buf, buf, &sz), CL_INVALID_VALUE);
    CHECK_ERR(clGetPlatformInfo(pl, CL_DEVICE_NAME, sizeof buf, buf, &sz),
              CL_INVALID_VALUE);
    /* size 0 with non-NULL value: too small for any string */
    CHECK_ERR(clGetPlatformInfo(pl, CL_PLATFORM_NAME, 0, buf, NULL), CL_INVALID_VALUE);
    /* wrong handle type: a device where a platform is expected */
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    CHECK_ERR(clGetPlatformInfo((cl_platform_id)d, CL_PLATFORM_NAME, sizeof buf, buf, NULL),
              CL_INVALID_PLATFORM);
}

TEST(platform_device_link)
{
    cl_device_id d = h_device();
    REQUIRE(d, "no device");
    cl_platform_id p = NULL;
    CHECK_OK(clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof p, &p, NULL));
    CHECK(p == h_platform(), "CL_DEVICE_PLATFORM %p != platform %p", (void *)p,
          (void *)h_platform());
}

typedef cl_int (*icd_get_platform_ids_fn)(cl_uint, cl_platform_id *, cl_uint *);

TEST(platform_extension_function_address_icd)
{
    cl_platform_id p = h_platform();
    REQUIRE(p, "no platform");
    /* cl_khr_icd's entry point, asked of the driver through the loader:
     * the driver's own function, not the loader's of the same name. */
    icd_get_platform_ids_fn f = (icd_get_platform_ids_fn)clGetExtensionFunctionAddressForPlatform(
        p, "clIcdGetPlatformIDsKHR");
    REQUIRE(f != NULL, "clIcdGetPlatformIDsKHR: NULL");
    cl_uint n = 0;
    CHECK_OK(f(0, NULL, &n));
    CHECK(n >= 1, "%u platforms", n);
    cl_platform_id got = NULL;
    CHECK_OK(f(1, &got, NULL));
    CHECK(got == p, "platform %p, want %p", (void *)got, (void *)p);
    CHECK(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionKHR") == NULL,
          "unknown name found");
}

int main(int argc, char **argv)
{
    h_init("api", argc, argv);
    H_RUN(platform_get_platform_ids);
    H_RUN(platform_string_queries);
    H_RUN(platform_profile_and_version);
    H_RUN(platform_extensions_with_version);
    H_RUN(platform_icd_suffix);
    H_RUN(platform_extension_function_address_icd);
    H_RUN(platform_host_timer_resolution);
    H_RUN(platform_invalid_param);
    H_RUN(platform_device_link);
    return h_done();
}
