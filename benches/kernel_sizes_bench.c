/* kernel_sizes_bench: the round trip (enqueue + clFinish) of a kernel of n
 * work-items doing 20 multiply-adds each, the runtime choosing the
 * work-group size, median of 300 after 20 untimed, for n = 4 Ki, 64 Ki and
 * 1 Mi: issue 14's mid-sized kernels, which a many-core runtime must not
 * make slower by sharing them (benches/many_cores.sh runs it per core
 * count). Prints kernel_roundtrip_N_us lines (NA when a step fails); lower
 * is better. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { WARM = 20, TIMED = 300 };

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const char *src =
    "kernel void k(global float *p) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = p[i];\n"
    "    for (int j = 0; j < 20; j++) x = x * 0.999f + 0.5f;\n"
    "    p[i] = x;\n"
    "}\n";

int main(void)
{
    static const size_t sizes[] = {4096, 65536, 1 << 20};
    cl_platform_id p;
    cl_device_id d;
    cl_int e = CL_SUCCESS;
    cl_context c = NULL;
    cl_command_queue q = NULL;
    cl_program pr = NULL;
    cl_kernel k = NULL;
    cl_mem b = NULL;
    float zero = 0;
    if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL) ||
        !(c = clCreateContext(NULL, 1, &d, NULL, NULL, &e)) ||
        !(q = clCreateCommandQueueWithProperties(c, d, NULL, &e)) ||
        !(pr = clCreateProgramWithSource(c, 1, &src, NULL, &e)) ||
        clBuildProgram(pr, 1, &d, "", NULL, NULL) || !(k = clCreateKernel(pr, "k", &e)) ||
        !(b = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(float) << 20, NULL, &e)) ||
        clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, sizeof(float) << 20, 0, NULL, NULL) ||
        clFinish(q) || clSetKernelArg(k, 0, sizeof b, &b)) {
        for (int s = 0; s < 3; s++) printf("kernel_roundtrip_%zu_us NA\n", sizes[s]);
        return 1;
    }
    for (int s = 0; s < 3; s++) {
        double t[TIMED];
        int ok = 1;
        for (int r = -WARM; r < TIMED && ok; r++) {
            double t0 = now_us();
            ok = !clEnqueueNDRangeKernel(q, k, 1, NULL, &sizes[s], NULL, 0, NULL, NULL) &&
                 !clFinish(q);
            if (r >= 0) t[r] = now_us() - t0;
        }
        if (!ok) {
            printf("kernel_roundtrip_%zu_us NA\n", sizes[s]);
            continue;
        }
        qsort(t, TIMED, sizeof t[0], by_value);
        printf("kernel_roundtrip_%zu_us %.2f\n", sizes[s], t[TIMED / 2]);
    }
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(pr);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    return 0;
}
