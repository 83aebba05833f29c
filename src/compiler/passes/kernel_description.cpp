// See kernel_description.h. The kernels are those with a work-item entry,
// in the module's order.
#include "kernel_description.h"
#include "kernel_abi.h"
#include "kernel_calls.h"
#include "kernel_symbols.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <optional>

using namespace llvm;

namespace ferrocl {

namespace {

// OpenCL's values (cl.h) for clGetKernelArgInfo.
constexpr unsigned ACCESS_READ_ONLY = 0x11A0, ACCESS_WRITE_ONLY = 0x11A1,
                   ACCESS_READ_WRITE = 0x11A2, ACCESS_NONE = 0x11A3;
constexpr unsigned QUALIFIER_CONST = 1, QUALIFIER_RESTRICT = 2, QUALIFIER_VOLATILE = 4,
                   QUALIFIER_PIPE = 8;

// binary.rs esc: backslashes, tabs and newlines escaped.
std::string escaped(StringRef s)
{
    std::string out;
    for (char c : s) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

const MDNode *attached(const Function &k, StringRef key) { return k.getMetadata(key); }

std::string string_item(const MDNode *md, unsigned i)
{
    if (!md || i >= md->getNumOperands())
        return "";
    const auto *s = dyn_cast_or_null<MDString>(md->getOperand(i).get());
    return s ? s->getString().str() : "";
}

std::optional<int64_t> int_item(const MDNode *md, unsigned i)
{
    if (!md || i >= md->getNumOperands())
        return std::nullopt;
    if (auto *c = mdconst::dyn_extract_or_null<ConstantInt>(md->getOperand(i).get()))
        return c->getSExtValue();
    return std::nullopt;
}

// `x,y,z` of a three-number attachment, or `-`.
std::optional<std::string> dimensions(const Function &k, StringRef key)
{
    const MDNode *md = attached(k, key);
    if (!md || md->getNumOperands() != 3)
        return std::nullopt;
    std::string out;
    for (unsigned i = 0; i < 3; i++) {
        auto v = int_item(md, i);
        if (!v)
            return std::nullopt;
        out += (i ? "," : "") + std::to_string(*v);
    }
    return out;
}

// The OpenCL C name of a vec_type_hint (`<4 x float>`, signed: float4).
std::optional<std::string> vector_type_name(const MDNode *md)
{
    if (!md || md->getNumOperands() != 2)
        return std::nullopt;
    const auto *value = dyn_cast_or_null<ValueAsMetadata>(md->getOperand(0).get());
    auto is_signed = int_item(md, 1);
    if (!value || !is_signed)
        return std::nullopt;
    Type *type = value->getType();
    std::string lanes;
    if (auto *v = dyn_cast<FixedVectorType>(type)) {
        lanes = std::to_string(v->getNumElements());
        type = v->getElementType();
    }
    std::string base;
    if (type->isIntegerTy(8))
        base = "char";
    else if (type->isIntegerTy(16))
        base = "short";
    else if (type->isIntegerTy(32))
        base = "int";
    else if (type->isIntegerTy(64))
        base = "long";
    else if (type->isHalfTy())
        base = "half";
    else if (type->isFloatTy())
        base = "float";
    else if (type->isDoubleTy())
        base = "double";
    else
        return std::nullopt;
    return (type->isIntegerTy() && !*is_signed ? "u" : "") + base + lanes;
}

unsigned access_qualifier(StringRef q)
{
    if (q == "read_only")
        return ACCESS_READ_ONLY;
    if (q == "write_only")
        return ACCESS_WRITE_ONLY;
    if (q == "read_write")
        return ACCESS_READ_WRITE;
    return ACCESS_NONE;
}

unsigned type_qualifiers(StringRef q)
{
    unsigned bits = 0;
    SmallVector<StringRef, 4> words;
    q.split(words, ' ', -1, false);
    for (StringRef w : words)
        bits |= w == "const"      ? QUALIFIER_CONST
                : w == "restrict" ? QUALIFIER_RESTRICT
                : w == "volatile" ? QUALIFIER_VOLATILE
                : w == "pipe"     ? QUALIFIER_PIPE
                                  : 0;
    return bits;
}

void describe(const Module &m, const Function &k, std::string &out)
{
    const DataLayout &layout = m.getDataLayout();
    const Function *group = m.getFunction((GROUP_ENTRY_PREFIX + k.getName()).str());
    const Function *item = m.getFunction((WORK_ITEM_ENTRY_PREFIX + k.getName()).str());
    // The kernel's body may live on only inlined into its entries.
    bool waits = may_wait_for_others(k) || (item && may_wait_for_others(*item)) ||
                 (group && may_wait_for_others(*group));
    auto reqd = dimensions(k, "reqd_work_group_size");
    auto hint = dimensions(k, "work_group_size_hint");
    std::string attributes;
    auto add = [&](const std::string &a) { attributes += (attributes.empty() ? "" : " ") + a; };
    if (reqd)
        add("reqd_work_group_size(" + *reqd + ")");
    if (hint)
        add("work_group_size_hint(" + *hint + ")");
    if (auto t = vector_type_name(attached(k, "vec_type_hint")))
        add("vec_type_hint(" + *t + ")");
    // cl_intel_required_subgroup_size: OpenCL C's
    // __attribute__((intel_reqd_sub_group_size(N))), SPIR-V's SubgroupSize
    // execution mode (the translator writes the same metadata); 0 for none.
    int64_t sub_group_size = int_item(attached(k, "intel_reqd_sub_group_size"), 0).value_or(0);
    if (sub_group_size)
        add("intel_reqd_sub_group_size(" + std::to_string(sub_group_size) + ")");
    uint64_t locals = 0;
    for (const GlobalVariable *v : local_variables(k))
        locals += layout.getTypeAllocSize(v->getValueType()).getFixedValue();
    uint64_t frame = 0;
    if (group && group->hasFnAttribute(FRAME_SIZE_ATTRIBUTE))
        group->getFnAttribute(FRAME_SIZE_ATTRIBUTE).getValueAsString().getAsInteger(10, frame);
    uint64_t inner = 0;
    if (group && group->hasFnAttribute(INNER_DIMENSION_ATTRIBUTE))
        group->getFnAttribute(INNER_DIMENSION_ATTRIBUTE).getValueAsString().getAsInteger(10, inner);
    bool uniform = k.getFnAttribute("uniform-work-group-size").getValueAsString() == "true";
    bool splittable = group && group->hasFnAttribute(SPLITTABLE_ATTRIBUTE);
    out += "kernel\t" + escaped(k.getName()) + "\t" + reqd.value_or("-") + "\t" +
           hint.value_or("-") + "\t" + (uses_barriers(k) ? "1" : "0") + "\t" +
           (group ? "1" : "0") + "\t" + escaped(attributes) + "\t" + std::to_string(locals) +
           "\t" + (uniform ? "1" : "0") + "\t" + std::to_string(frame) + "\t" +
           (attached(k, "kernel_arg_name") ? "1" : "0") + "\t" +
           (attached(k, "ferrocl.denorms_are_zero") ? "1" : "0") + "\t" + std::to_string(inner) +
           "\t" + (waits ? "1" : "0") + "\t" + (splittable ? "1" : "0") + "\t" +
           std::to_string(sub_group_size) + "\n";
    const MDNode *spaces = attached(k, "kernel_arg_addr_space");
    const MDNode *types = attached(k, "kernel_arg_type");
    const MDNode *names = attached(k, "kernel_arg_name");
    const MDNode *access = attached(k, "kernel_arg_access_qual");
    const MDNode *qualifiers = attached(k, "kernel_arg_type_qual");
    // A block's kernel has no argument metadata: its first parameter is the
    // block literal (a pointer passed by value), the others __local
    // pointers.
    bool block = is_block_kernel(k.getName());
    for (const Argument &a : k.args()) {
        unsigned i = a.getArgNo();
        int64_t space = int_item(spaces, i).value_or(0);
        if (block)
            space = a.getType()->isPointerTy() && a.getType()->getPointerAddressSpace() == 3 ? 3
                                                                                          : 0;
        if (space < 0 || space > 3)
            space = 0;
        uint64_t size = 8;
        if (space == 0 && !block) {
            Type *t = a.hasByValAttr() ? a.getParamByValType() : a.getType();
            size = layout.getTypeAllocSize(t).getFixedValue();
        }
        out += "arg\t" + std::to_string(space) + "\t" + std::to_string(size) + "\t" +
               escaped(string_item(types, i)) + "\t" + escaped(string_item(names, i)) + "\t" +
               std::to_string(access_qualifier(string_item(access, i))) + "\t" +
               std::to_string(type_qualifiers(string_item(qualifiers, i))) + "\n";
    }
}

// For the build log: why a kernel without a work-group entry runs one
// work-item at a time.
std::string slow_path(const Function &k)
{
    const char *fibers = "; it runs one fiber per work-item, correctly but more slowly";
    const char *one_by_one = "; it runs one work-item at a time, correctly but more slowly";
    if (k.hasFnAttribute(Attribute::OptimizeNone))
        return std::string("built with -cl-opt-disable") +
               (uses_barriers(k) ? fibers : one_by_one);
    for (const Function *f : reachable_functions(k))
        if (f->getName() == PROGRESS_POINT)
            return std::string("a loop in it may wait for another work-item (its exit tests an "
                               "atomic or volatile read), and gives way there") +
                   fibers;
    if (uses_barriers(k) && !only_own_barriers(k))
        return std::string("it calls sub-group functions, async copies, or a function that "
                           "waits and could not be inlined") +
               fibers;
    if (!loop_safe(k))
        return std::string("a function it calls asks for work-item ids itself and could not be "
                           "inlined") +
               (uses_barriers(k) ? fibers : one_by_one);
    return "";
}

} // namespace

std::string describe_kernels(Module &m)
{
    std::string out, notes;
    NamedMDNode *fibers = m.getNamedMetadata(FIBER_KERNELS);
    auto noted = [&](StringRef name) {
        if (fibers)
            for (const MDNode *n : fibers->operands())
                if (string_item(n, 0) == name)
                    return true;
        return false;
    };
    for (const Function &f : m) {
        StringRef name = f.getName();
        if (!name.consume_front(WORK_ITEM_ENTRY_PREFIX))
            continue;
        const Function *k = m.getFunction(name);
        if (!k)
            continue;
        describe(m, *k, out);
        bool grouped = m.getFunction((GROUP_ENTRY_PREFIX + name).str());
        std::string why = grouped || is_block_kernel(name) || noted(name) ? "" : slow_path(*k);
        if (!why.empty())
            notes += "note\tferrocl: note: kernel " + escaped(name) + ": " + escaped(why) + "\n";
    }
    out += notes;
    if (fibers) {
        for (const MDNode *n : fibers->operands())
            out += "note\tferrocl: note: kernel " + escaped(string_item(n, 0)) +
                   ": its barriers could not be cut into regions (" +
                   escaped(string_item(n, 1)) +
                   "); it runs one fiber per work-item, correctly but more slowly\n";
        m.eraseNamedMetadata(fibers);
    }
    return out;
}

} // namespace ferrocl
