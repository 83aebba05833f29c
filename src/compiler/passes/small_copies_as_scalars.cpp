// `ferrocl-small-copies-as-scalars`: in the back end, right before the
// loop vectorizer, a `memcpy`, `memmove` or `memset` of a few bytes (at
// most MAX_BYTES, a constant length) in a work-item loop becomes the
// scalar loads and stores it stands for: elements as wide as the length
// and both sides' alignment allow, every load before any store (so a
// `memmove` of overlapping bytes copies what was there), each with the
// call's access group and alias scopes.
//
// Why: LLVM's loop vectorizer cannot widen a call of these intrinsics, so
// one of them keeps the whole work-item loop at one work-item an
// iteration. SYCL code copies its small private values whole (a
// `sycl::vec<float, 4>` a work-item keeps, a `std::array` of a group
// load), and the region frame makes such a value a slot of 16 bytes per
// work-item: dpnp's isclose copied its two chunks of four floats into and
// out of the frame with `memcpy`, and its compare, a few instructions per
// element, ran scalar. Instcombine turns only copies of up to 8 bytes into
// a load and a store. Small: a longer copy is a loop's work of its own.
#include "parallel_access.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The longest copy the pass takes apart.
constexpr uint64_t MAX_BYTES = 64;

// Whether `i` is in a work-item loop or a loop inside one.
bool in_work_item_loop(const Instruction &i, const LoopInfo &loops)
{
    for (const Loop *l = loops.getLoopFor(i.getParent()); l; l = l->getParentLoop())
        if (is_work_item_loop(l))
            return true;
    return false;
}

// The widest element (4, 2 or 1 bytes) that divides `bytes` and both
// alignments. Not 8: the values copied are mostly floats and ints, which
// later loads read as such; an i64 holding two floats keeps the vectorizer
// from matching a store with the loads of its halves.
uint64_t element_bytes(uint64_t bytes, Align a, Align b)
{
    uint64_t align = std::min(a.value(), b.value());
    for (uint64_t size : {4u, 2u})
        if (bytes % size == 0 && align >= size)
            return size;
    return 1;
}

// The call's metadata the scalar accesses keep: what the work-item loop's
// vectorizer and alias analysis read.
void keep_metadata(Instruction &access, const Instruction &call)
{
    access.copyMetadata(call, {LLVMContext::MD_access_group, LLVMContext::MD_alias_scope,
                               LLVMContext::MD_noalias});
}

// `base` advanced by `at` bytes.
Value *offset(IRBuilder<> &b, Value *base, uint64_t at)
{
    return at == 0 ? base : b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, at);
}

// `call` as scalar accesses: true where it was rewritten.
bool expand(MemIntrinsic &call)
{
    auto *length = dyn_cast<ConstantInt>(call.getLength());
    if (call.isVolatile() || !length || length->getZExtValue() == 0 ||
        length->getZExtValue() > MAX_BYTES)
        return false;
    uint64_t bytes = length->getZExtValue();
    IRBuilder<> b(&call);
    Align dst_align = call.getDestAlign().valueOrOne();
    if (auto *copy = dyn_cast<MemTransferInst>(&call)) {
        Align src_align = copy->getSourceAlign().valueOrOne();
        uint64_t size = element_bytes(bytes, dst_align, src_align);
        Type *element = b.getIntNTy(8 * size);
        SmallVector<Value *, 16> values;
        for (uint64_t at = 0; at < bytes; at += size) {
            Value *from = offset(b, copy->getSource(), at);
            LoadInst *load = b.CreateAlignedLoad(element, from, commonAlignment(src_align, at));
            keep_metadata(*load, call);
            values.push_back(load);
        }
        for (uint64_t at = 0, k = 0; at < bytes; at += size, k++) {
            Value *to = offset(b, call.getDest(), at);
            StoreInst *store =
                b.CreateAlignedStore(values[k], to, commonAlignment(dst_align, at));
            keep_metadata(*store, call);
        }
    } else if (auto *set = dyn_cast<MemSetInst>(&call)) {
        uint64_t size = element_bytes(bytes, dst_align, dst_align);
        Type *element = b.getIntNTy(8 * size);
        // The byte repeated across the element: byte * 0x0101...01.
        APInt ones = APInt::getSplat(8 * size, APInt(8, 1));
        Value *value =
            b.CreateMul(b.CreateZExt(set->getValue(), element), ConstantInt::get(element, ones));
        for (uint64_t at = 0; at < bytes; at += size) {
            Value *to = offset(b, call.getDest(), at);
            StoreInst *store = b.CreateAlignedStore(value, to, commonAlignment(dst_align, at));
            keep_metadata(*store, call);
        }
    } else {
        return false;
    }
    call.eraseFromParent();
    return true;
}

} // namespace

PreservedAnalyses SmallCopiesAsScalarsPass::run(Function &f, FunctionAnalysisManager &am)
{
    const LoopInfo &loops = am.getResult<LoopAnalysis>(f);
    SmallVector<MemIntrinsic *, 8> calls;
    for (Instruction &i : instructions(f))
        if (auto *call = dyn_cast<MemIntrinsic>(&i); call && in_work_item_loop(*call, loops))
            calls.push_back(call);
    bool changed = false;
    for (MemIntrinsic *call : calls)
        changed |= expand(*call);
    if (!changed)
        return PreservedAnalyses::all();
    PreservedAnalyses kept;
    kept.preserveSet<CFGAnalyses>();
    return kept;
}

} // namespace ferrocl
