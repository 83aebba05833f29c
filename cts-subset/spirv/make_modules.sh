#!/usr/bin/env bash
# Makes the SPIR-V modules of cts-subset/spirv from their sources: not run
# by the tests, which read the modules checked in beside this file. Needs
# clang-15, llvm-spirv-15 and spirv-tools (apt-get install clang-15
# llvm-spirv-15 spirv-tools).
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# OpenCL C 2.0 (clang-15 has every 2.0 feature on for SPIR), -O0 as
# front ends that leave optimization to the runtime emit it.
for m in kernels linked; do
    clang-15 -c -target spir64 -cl-std=CL2.0 -Xclang -finclude-default-header \
        -emit-llvm -O0 $m.cl -o "$tmp/$m.bc"
    llvm-spirv-15 --spirv-max-version=1.0 "$tmp/$m.bc" -o $m.spv
done
# SPIR-V 1.5, the newest version the device reports.
spirv-as --target-env spv1.5 spec.spvasm -o spec.spv
spirv-as --target-env spv1.5 newer.spvasm -o newer.spv
# SPIR-V 1.3 (sub-group instructions) and the extensions the device reports.
spirv-as --target-env spv1.3 extensions.spvasm -o extensions.spv
# SPIR-V 1.1 (OpExecutionMode SubgroupSize).
spirv-as --target-env spv1.1 sizes.spvasm -o sizes.spv
for m in odr_lib odr_main; do
    spirv-as --target-env spv1.0 $m.spvasm -o $m.spv
    spirv-val --target-env opencl2.2 $m.spv
done
spirv-val --target-env opencl2.2 kernels.spv
spirv-val --target-env opencl2.2 linked.spv
spirv-val --target-env spv1.5 spec.spv
spirv-val --target-env spv1.5 newer.spv
spirv-val --target-env spv1.3 extensions.spv
spirv-val --target-env spv1.1 sizes.spv
