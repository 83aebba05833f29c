// `ferrocl-scalarize-work-item-loops`: in the back end, after inlining and
// right before the loop vectorizer, a function with a work-item loop (a
// loop whose accesses are marked parallel: parallel_access.h) has its
// vector values split into scalars, loads and stores included. A load or
// store of a vector of 16, 32 or 64 bits (a uchar4 pixel, a short2, a
// float2) is first made one of an integer of that size, its elements
// shifted out of it or into it.
//
// Why: LLVM's loop vectorizer widens scalar code only; one vector-typed
// value in a work-item loop keeps the loop at one work-item an iteration.
// The region pipeline scalarizes kernels before the back end, but the
// builtins are linked and inlined later, and a float4 `exp` or `hypot`
// brings its vectors back; barrier-free kernels were never scalarized.
// AMD's Black-Scholes (float4 throughout) ran four lanes wide with SSE on
// an AVX-512 host. Scalarized, the vectorizer makes a float4 four vectors
// of one component of 8 or 16 work-items each, and where it does not
// vectorize, the SLP vectorizer after it puts the scalars back together.
//
// Except wide vector code (wide_vector_code.h): a work-item loop whose
// work is done on vectors as wide as the host's registers (float16 with
// AVX-512, float8 with AVX) keeps them. Scalarized, clpeak's
// global_bandwidth_v16 loaded each float16 of 16 work-items as 16 gathers,
// 5x slower; its own loads are whole registers. Narrower ones are split:
// clpeak's float8 mad chains run 2x faster as 16 lanes of work-items on an
// AVX-512 host than as half-empty registers.
#include "parallel_access.h"
#include "passes.h"
#include "wide_vector_code.h"

#include <llvm/ADT/SmallBitVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Scalar/InstSimplifyPass.h>

using namespace llvm;

namespace ferrocl {

namespace {

// The blocks of the work-item loops (loops whose accesses are marked
// parallel), their inner loops included; none without one.
SmallVector<const BasicBlock *, 32> work_item_loop_blocks(const LoopInfo &loops)
{
    SmallVector<const BasicBlock *, 32> blocks;
    for (const Loop *l : loops.getLoopsInPreorder()) {
        if (!is_work_item_loop(l))
            continue;
        bool outermost = true;
        for (const Loop *p = l->getParentLoop(); p; p = p->getParentLoop())
            outermost = outermost && !is_work_item_loop(p);
        if (outermost)
            blocks.append(l->block_begin(), l->block_end());
    }
    return blocks;
}

// The integer type a load or store of `type` is made of, when it is a
// vector of 16, 32 or 64 bits without padding.
IntegerType *packed(Type *type, const DataLayout &layout)
{
    auto *vector = dyn_cast<FixedVectorType>(type);
    if (!vector || !layout.isLittleEndian())
        return nullptr;
    Type *element = vector->getElementType();
    uint64_t bits = layout.getTypeSizeInBits(vector);
    if ((!element->isIntegerTy() && !element->isFloatingPointTy()) ||
        element->getPrimitiveSizeInBits() < 8 || layout.getTypeStoreSizeInBits(vector) != bits ||
        (bits != 16 && bits != 32 && bits != 64))
        return nullptr;
    return IntegerType::get(type->getContext(), unsigned(bits));
}

// Element k of `vector`'s type taken out of the integer `word`.
Value *element_of(IRBuilder<> &b, Value *word, FixedVectorType *vector, unsigned k)
{
    Type *element = vector->getElementType();
    unsigned bits = unsigned(element->getPrimitiveSizeInBits());
    Value *shifted = k == 0 ? word : b.CreateLShr(word, uint64_t(k) * bits);
    Value *narrow = b.CreateTrunc(shifted, b.getIntNTy(bits));
    return element->isIntegerTy() ? narrow : b.CreateBitCast(narrow, element);
}

void pack_load(LoadInst *load, IntegerType *word_type)
{
    IRBuilder<> b(load);
    LoadInst *word = b.CreateAlignedLoad(word_type, load->getPointerOperand(), load->getAlign(),
                                         load->getName() + ".word");
    // Its scopes and access group; not its type-based alias tag, which
    // names the vector's element type.
    word->copyMetadata(*load, {LLVMContext::MD_alias_scope, LLVMContext::MD_noalias,
                               LLVMContext::MD_access_group, LLVMContext::MD_nontemporal});
    auto *vector = cast<FixedVectorType>(load->getType());
    Value *value = PoisonValue::get(vector);
    for (unsigned k = 0; k < vector->getNumElements(); k++)
        value = b.CreateInsertElement(value, element_of(b, word, vector, k), k);
    load->replaceAllUsesWith(value);
    load->eraseFromParent();
}

// Whether `v` is built with a lane it leaves poison or undef: a shuffle
// lane that is poison or taken from a poison or undef operand, or an
// insertion chain over poison or undef that sets fewer lanes than it has.
bool may_leave_a_lane_poison(const Value *v)
{
    if (const auto *shuffle = dyn_cast<ShuffleVectorInst>(v)) {
        unsigned n = cast<FixedVectorType>(shuffle->getOperand(0)->getType())->getNumElements();
        for (int lane : shuffle->getShuffleMask()) {
            if (lane < 0)
                return true;
            if (isa<UndefValue>(shuffle->getOperand(unsigned(lane) < n ? 0 : 1)))
                return true;
        }
        return false;
    }
    SmallBitVector set;
    const Value *base = v;
    while (const auto *insert = dyn_cast<InsertElementInst>(base)) {
        const auto *index = dyn_cast<ConstantInt>(insert->getOperand(2));
        if (!index)
            return true;
        if (set.size() <= index->getZExtValue())
            set.resize(unsigned(index->getZExtValue()) + 1);
        set.set(unsigned(index->getZExtValue()));
        base = insert->getOperand(0);
    }
    if (base == v || !isa<UndefValue>(base))
        return false;
    return set.count() < cast<FixedVectorType>(v->getType())->getNumElements();
}

void pack_store(StoreInst *store, IntegerType *word_type)
{
    IRBuilder<> b(store);
    // A lane the vector leaves poison (clang's `.hi` of a 3-component
    // vector takes its second lane from past the end) would make the whole
    // word poison, and a store of poison is deleted; the vector store wrote
    // the other lanes. Frozen first, that lane is some value.
    Value *value = store->getValueOperand();
    if (may_leave_a_lane_poison(value))
        value = b.CreateFreeze(value);
    auto *vector = cast<FixedVectorType>(value->getType());
    Type *element = vector->getElementType();
    unsigned bits = unsigned(element->getPrimitiveSizeInBits());
    Value *word = ConstantInt::get(word_type, 0);
    for (unsigned k = 0; k < vector->getNumElements(); k++) {
        Value *e = b.CreateExtractElement(value, k);
        if (!element->isIntegerTy())
            e = b.CreateBitCast(e, b.getIntNTy(bits));
        Value *wide = b.CreateZExt(e, word_type);
        word = b.CreateOr(word, k == 0 ? wide : b.CreateShl(wide, uint64_t(k) * bits));
    }
    StoreInst *packed_store =
        b.CreateAlignedStore(word, store->getPointerOperand(), store->getAlign());
    packed_store->copyMetadata(*store, {LLVMContext::MD_alias_scope, LLVMContext::MD_noalias,
                                        LLVMContext::MD_access_group,
                                        LLVMContext::MD_nontemporal});
    store->eraseFromParent();
}

// Small vectors' loads and stores, not volatile or atomic, as integers.
bool pack_small_vectors(Function &f)
{
    const DataLayout &layout = f.getDataLayout();
    SmallVector<std::pair<Instruction *, IntegerType *>, 16> found;
    for (Instruction &i : instructions(f)) {
        if (auto *load = dyn_cast<LoadInst>(&i); load && load->isSimple()) {
            if (IntegerType *t = packed(load->getType(), layout))
                found.push_back({load, t});
        } else if (auto *store = dyn_cast<StoreInst>(&i); store && store->isSimple()) {
            if (IntegerType *t = packed(store->getValueOperand()->getType(), layout))
                found.push_back({store, t});
        }
    }
    for (auto [i, t] : found) {
        if (auto *load = dyn_cast<LoadInst>(i))
            pack_load(load, t);
        else
            pack_store(cast<StoreInst>(i), t);
    }
    return !found.empty();
}

// The elements of a vector `v` that a bitcast to vector `outer` reads, as
// a vector: `outer`'s operand is `bitcast v` (to a scalar or a vector) or
// element `c` of `bitcast v to <n x S>`. Null for any other operand.
Value *source_elements(BitCastInst &outer)
{
    if (!outer.getDestTy()->isVectorTy())
        return nullptr;
    if (auto *inner = dyn_cast<BitCastInst>(outer.getOperand(0));
        inner && inner->getSrcTy()->isVectorTy())
        return inner->getOperand(0);
    auto *extract = dyn_cast<ExtractElementInst>(outer.getOperand(0));
    auto *index = extract ? dyn_cast<ConstantInt>(extract->getIndexOperand()) : nullptr;
    auto *inner = extract ? dyn_cast<BitCastInst>(extract->getVectorOperand()) : nullptr;
    auto *whole = inner ? dyn_cast<FixedVectorType>(inner->getSrcTy()) : nullptr;
    if (!index || !whole)
        return nullptr;
    unsigned parts = cast<FixedVectorType>(inner->getDestTy())->getNumElements();
    if (whole->getNumElements() % parts != 0 || index->getZExtValue() >= parts)
        return nullptr;
    unsigned per_part = whole->getNumElements() / parts;
    SmallVector<int, 16> lanes;
    for (unsigned k = 0; k < per_part; k++)
        lanes.push_back(int(index->getZExtValue() * per_part + k));
    return new ShuffleVectorInst(inner->getOperand(0), lanes, outer.getName() + ".lanes", &outer);
}

// A bitcast to a vector from a value that was a vector before another
// bitcast, as one cast of that vector's elements. A float4 reaches a
// builtin's float2 halves as doubles (the x86-64 calling convention: a
// <2 x double> of it, one element each); their bodies' `as_uint(x.s0)`
// make each double a <2 x i32> once inlined. The scalarizer splits
// vector-to-vector casts only, and a vector left in the loop keeps it from
// vectorizing (float4 log: AMD's Black-Scholes).
bool fold_bitcasts_through_scalars(Function &f)
{
    SmallVector<BitCastInst *, 16> casts;
    for (Instruction &i : instructions(f))
        if (auto *c = dyn_cast<BitCastInst>(&i); c && c->getDestTy()->isVectorTy())
            casts.push_back(c);
    bool changed = false;
    for (BitCastInst *c : casts) {
        Value *elements = source_elements(*c);
        if (!elements)
            continue;
        Value *folded = elements->getType() == c->getDestTy()
                            ? elements
                            : new BitCastInst(elements, c->getDestTy(), c->getName(), c);
        c->replaceAllUsesWith(folded);
        c->eraseFromParent();
        changed = true;
    }
    return changed;
}

} // namespace

PreservedAnalyses ScalarizeWorkItemLoopsPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    SmallVector<const BasicBlock *, 32> blocks =
        work_item_loop_blocks(fam.getResult<LoopAnalysis>(f));
    if (blocks.empty())
        return PreservedAnalyses::all();
    if (is_wide_vector_code(blocks, host_vector_bits()))
        return PreservedAnalyses::all();
    bool packed = pack_small_vectors(f);
    if (fold_bitcasts_through_scalars(f) || packed)
        fam.invalidate(f, PreservedAnalyses::none());
    ScalarizerPassOptions options;
    options.ScalarizeLoadStore = true;
    PreservedAnalyses kept = ScalarizerPass(options).run(f, fam);
    fam.invalidate(f, kept);
    // A builtin's vector arguments reach it as the x86-64 calling
    // convention passes them (a float2 as a double): once inlined and
    // scalarized, each is built, cast, cast back and taken apart again,
    // and the vectorizer refuses the vector-typed steps; this folds them.
    kept.intersect(InstSimplifyPass().run(f, fam));
    return kept;
}

} // namespace ferrocl
