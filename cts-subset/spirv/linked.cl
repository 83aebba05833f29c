// The kernel of cts-subset/spirv/spirv.c's link_with_source test, compiled
// to SPIR-V by make_modules.sh: it imports a function (SPIR-V's Linkage
// capability) that an OpenCL C program compiled apart defines.
// A function another program defines (clLinkProgram with source objects).
int linked_helper(int x);

kernel void calls_linked(global int *out)
{
    size_t g = get_global_id(0);
    out[g] = linked_helper((int)g);
}
