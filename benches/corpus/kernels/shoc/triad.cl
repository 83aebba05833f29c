// From SHOC (https://github.com/vetter/shoc, commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0),
// src/opencl/level1/triad/Triad.cpp (the kernel source string mTriadCLSource), BSD 3-clause licence (LICENSE beside this file).
// Changes: taken out of the C string array into a plain OpenCL C file.

__kernel void Triad(__global const float *memA, __global const float *memB, __global float *memC, const float s)
{
    int gid = get_global_id(0);
    memC[gid] = memA[gid] + s*memB[gid];
}
