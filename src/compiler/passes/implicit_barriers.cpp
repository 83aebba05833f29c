// `ferrocl-implicit-barriers`: a barrier-free kernel whose loop carries a
// floating-point value (a sum) or a work-item's integer that it multiplies
// (a chain of products) gets an implicit barrier at the loop's
// header and after it, when every work-item runs the loop the same number
// of times (group_uniformity.h, is_uniform_compute_loop).
//
// Why: a work-item loop around such a kernel runs the inner loop once per
// work-item; LLVM cannot vectorize the inner loop (that would reorder the
// additions), and the work-item loop around it is not innermost, so
// nothing vectorizes: naive matrix products, n-body steps. A barrier at the
// header changes no result: it only makes all work-items run iteration i
// before any runs i + 1, an order OpenCL allows anyway. The region
// transform then turns each iteration into a work-item loop, which
// vectorizes like a barrier-free kernel, with the carried values per
// work-item in the frame. The loop's counters are named as uniform
// (UNIFORM_PREFIX): the region transform keeps them once per group.
//
// In a kernel with barriers the same holds for an innermost loop between
// them (is_uniform_inner_compute_loop): n-body's loop over the __local tile
// ran inside one region, work-item by work-item, 5x slower than Intel's
// runtime. Not for loops of at most 32 iterations known at compile time;
// kernels with other waits (work-group functions) are left alone.
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace ferrocl {

namespace {

// A loop of a few iterations known at compile time between barriers: a
// region per pair of them costs more than it wins (Rodinia's lud_internal,
// 16 iterations, ran 2x slower with them).
bool short_loop(Function &f, Loop &l, FunctionAnalysisManager &fam)
{
    unsigned trips = fam.getResult<ScalarEvolutionAnalysis>(f).getSmallConstantTripCount(&l);
    return trips != 0 && trips <= 32;
}

// Whether `v` is computed from a phi (a loop's counter): ferrocl-rematerialize
// computes the other cheap values again where they are used.
bool from_phi(const Value *v, unsigned depth)
{
    const auto *i = dyn_cast<Instruction>(v);
    if (!i || depth > 8)
        return false;
    if (isa<PHINode>(i))
        return true;
    for (const Value *op : i->operands())
        if (from_phi(op, depth + 1))
            return true;
    return false;
}

// Whether `v` is computed with more than integer arithmetic on work-item
// sizes and ids (a float, a call of `floor`, a load of __constant memory):
// ferrocl-rematerialize does not compute such a value again.
bool beyond_cheap(const Value *v, unsigned depth)
{
    const auto *i = dyn_cast<Instruction>(v);
    if (!i || isa<PHINode>(i))
        return false;
    if (depth > 8)
        return true;
    if (const Function *f = called_function(*i); f && is_work_item_function(f->getName()))
        return false;
    if (!is_cheap_operation(*i) && !isa<ICmpInst>(i) && !isa<SelectInst>(i))
        return true;
    for (const Value *op : i->operands())
        if (beyond_cheap(op, depth + 1))
            return true;
    return false;
}

// The integers all work-items compute alike from a loop's counter, or
// beyond cheap arithmetic, where they go together, used past their block,
// are named as uniform too: the region transform then keeps them once per
// group. The second iteration of a loop unrolled twice
// (mark_loops_for_unrolling.cpp) counts `i + 1`; kept per work-item, an
// access `c[(i + 1) * n + k]` in the regions of a loop inside it became a
// gather of one element per work-item (kmeans). Parboil's cutcp finds its
// atoms' bin with `(int)floor(8 * get_group_id(1) * h / 4)`: kept per
// work-item, every atom's load became a gather.
void name_uniform_values(Function &f, const GroupUniformity &u)
{
    unsigned n = 0;
    for (BasicBlock &b : f) {
        if (!u.together(&b))
            continue;
        for (Instruction &i : b) {
            if (isa<PHINode>(i) || !i.getType()->isIntegerTy() ||
                i.getName().starts_with(UNIFORM_PREFIX) || !u.uniform(&i) ||
                !(from_phi(&i, 0) || beyond_cheap(&i, 0)))
                continue;
            // Used in another block, other than by a phi (a phi's incoming
            // value is stored where it is computed).
            bool outside = any_of(i.users(), [&](const User *user) {
                return !isa<PHINode>(user) && cast<Instruction>(user)->getParent() != &b;
            });
            if (outside)
                i.setName(Twine(UNIFORM_PREFIX) + (i.hasName() ? i.getName() : "v" + Twine(n++)));
        }
    }
}

} // namespace

PreservedAnalyses ImplicitBarriersPass::run(Module &m, ModuleAnalysisManager &mam)
{
    auto &fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    LLVMContext &ctx = m.getContext();
    FunctionCallee implicit = nullptr;
    for (Function &f : m) {
        if (f.isDeclaration() || !is_kernel(f))
            continue;
        Waits w = kernel_waits(f);
        if (w.others)
            continue;
        bool barriers = w.plain_barriers;
        auto &loops = fam.getResult<LoopAnalysis>(f);
        auto &pdt = fam.getResult<PostDominatorTreeAnalysis>(f);
        GroupUniformity u(f);
        SetVector<BasicBlock *> at;
        SmallVector<PHINode *, 8> counters;
        for (Loop *l : loops.getLoopsInPreorder()) {
            if (barriers ? !is_uniform_inner_compute_loop(*l, u, counters) || short_loop(f, *l, fam)
                         : !is_uniform_compute_loop(*l, u, pdt, counters))
                continue;
            // An iteration is a region of its own, and what follows the loop
            // another.
            at.insert(l->getHeader());
            SmallVector<BasicBlock *, 4> exits;
            l->getUniqueExitBlocks(exits);
            at.insert(exits.begin(), exits.end());
        }
        if (at.empty())
            continue;
        if (!implicit)
            implicit = m.getOrInsertFunction(IMPLICIT_BARRIER,
                                             FunctionType::get(Type::getVoidTy(ctx), false));
        for (BasicBlock *b : at)
            CallInst::Create(implicit, {}, "", &*b->getFirstNonPHIIt());
        unsigned n = 0;
        for (PHINode *phi : counters)
            phi->setName(Twine(UNIFORM_PREFIX) + Twine(n++));
        name_uniform_values(f, u);
        fam.invalidate(f, PreservedAnalyses::none());
    }
    return implicit ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
