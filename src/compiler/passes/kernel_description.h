// What the runtime needs to know of each kernel of a module ready for the
// back end (after the entries pipeline): binary.rs's kernel metadata
// lines (`kernel\t...`, `arg\t...`, one format for the build and the
// program binary), then a `note\t<text>` line for each thing the build log
// should say: each kernel that runs one work-item at a time (on fibers or
// not) instead of in a work-group entry's loops, and why.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace ferrocl {

std::string describe_kernels(llvm::Module &m);

} // namespace ferrocl
