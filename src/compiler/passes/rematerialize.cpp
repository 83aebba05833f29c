// `ferrocl-rematerialize`: in a function cut at barriers, each use of a
// value that is cheap to compute again (work-item ids and sizes, integer
// arithmetic and addresses built from them, calls of helpers that are such
// arithmetic on their arguments, constants and the parameters)
// in a block other than its own gets its own copy of the computation
// (`__fcl.rm.N`), just before the use.
//
// Why: `reg2mem` next would put such values in the frame, and the
// work-item loops would read a local id from memory where they have it as
// the loop variable: uniform and contiguous accesses would become gathers.
#include "group_uniformity.h"
#include "kernel_symbols.h"
#include "passes.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace ferrocl {

namespace {

// Whether `d` is a size (get_local_size and the other is_size_query
// sizes), through casts and guard_division.cpp's `d == 0 ? 1 : d`.
bool is_size_divisor(const Value *d)
{
    const Value *guarded;
    if (match(d, m_Select(m_Value(), m_One(), m_Value(guarded))))
        d = guarded;
    while (const auto *cast = dyn_cast<CastInst>(d))
        d = cast->getOperand(0);
    return is_size_query(d);
}

// Instructions in a helper's body that a call of it copies at most.
constexpr size_t MAX_HELPER = 16;

// Whether `f` is a function of its arguments alone whose body is one block
// of cheap operations (SHOC's ToGlobalRow, `gid * lsz + lid`, and
// ToFlatHaloedIdx): a call of it is as cheap as they are. The front end
// leaves such helpers uninlined until the back end; read from the frame,
// SHOC Stencil2D's row and column made each of its loads of `data` a
// gather.
bool cheap_helper(const Function *f)
{
    if (!f || f->isDeclaration() || f->isVarArg() || f->size() != 1 ||
        f->getEntryBlock().size() > MAX_HELPER)
        return false;
    for (const Instruction &i : f->getEntryBlock()) {
        bool cheap = isa<ReturnInst>(i) || isa<ICmpInst>(i) || isa<SelectInst>(i) ||
                     is_cheap_operation(i);
        if (!cheap)
            return false;
    }
    return true;
}

// Operations whose results a block can compute again.
bool cheap_shape(const Instruction &i)
{
    // Comparisons and choices between cheap values (a neighbour clamped
    // at the row's ends, `x > 0 ? x - 1 : 0`), and a remainder by a size (a
    // neighbour around the group, `(lid + 1) % lsize`): computed again in
    // each work-item loop, where index_choices_as_ranges.cpp finds them the
    // index itself for all but a few work-items; read from the frame, each
    // was a gather's index for every work-item.
    if (isa<ICmpInst>(i) || isa<SelectInst>(i))
        return true;
    if (i.getOpcode() == Instruction::URem || i.getOpcode() == Instruction::SRem)
        return is_size_divisor(i.getOperand(1));
    if (const auto *call = dyn_cast<CallInst>(&i)) {
        if (cheap_helper(call->getCalledFunction()))
            return true;
        // A work-item function with constant arguments.
        const Function *f = called_function(i);
        if (!f || !is_work_item_function(f->getName()))
            return false;
        for (const Value *arg : call->args())
            if (!isa<Constant>(arg))
                return false;
        return true;
    }
    return is_cheap_operation(i);
}

class Rematerializer {
  public:
    explicit Rematerializer(Function &f)
    {
        // Cheap: a cheap operation on constants, parameters and cheap values.
        bool grew = true;
        while (grew) {
            grew = false;
            for (Instruction &i : instructions(f)) {
                if (cheap_.contains(&i) || !cheap_shape(i))
                    continue;
                bool operands = true;
                for (const Value *op : i.operands())
                    if (auto *d = dyn_cast<Instruction>(op))
                        operands = operands && cheap_.contains(d);
                if (operands)
                    grew = cheap_.insert(&i).second || grew;
            }
        }
    }

    bool any() const { return !cheap_.empty(); }

    // Copies of the cheap values `user` reads from other blocks, before it.
    bool rematerialize(Instruction &user)
    {
        if (isa<PHINode>(user))
            return false;
        DenseMap<Instruction *, Instruction *> copies;
        for (Use &op : user.operands()) {
            auto *d = dyn_cast<Instruction>(op.get());
            if (!d || !cheap_.contains(d) || d->getParent() == user.getParent())
                continue;
            op.set(copy(d, user, copies));
        }
        return !copies.empty();
    }

  private:
    // A copy of `value`'s computation before `user`, its cheap operands
    // copied first (once each).
    Instruction *copy(Instruction *value, Instruction &user,
                      DenseMap<Instruction *, Instruction *> &copies)
    {
        if (Instruction *done = copies.lookup(value))
            return done;
        Instruction *c = value->clone();
        for (Use &op : c->operands())
            if (auto *d = dyn_cast<Instruction>(op.get()); d && cheap_.contains(d))
                op.set(copy(d, user, copies));
        c->setName("__fcl.rm." + Twine(counter_++));
        c->insertBefore(&user);
        copies[value] = c;
        // A copy is as cheap as its original: a later user in another
        // block that reads a value built on it (`x < 0` on a copied `x`,
        // then `x < 0 ? -x : 0` used after a barrier) copies it again
        // instead of reading it from the frame.
        cheap_.insert(c);
        return c;
    }

    SmallPtrSet<Instruction *, 32> cheap_;
    unsigned counter_ = 0;
};

} // namespace

PreservedAnalyses RematerializePass::run(Module &m, ModuleAnalysisManager &)
{
    bool changed = false;
    for (Function &f : m) {
        bool barriers = false;
        for (const Instruction &i : instructions(f))
            barriers = barriers || calls_plain_barrier(i);
        if (!barriers)
            continue;
        Rematerializer r(f);
        if (!r.any())
            continue;
        SmallVector<Instruction *, 256> users;
        for (Instruction &i : instructions(f))
            users.push_back(&i);
        for (Instruction *i : users)
            changed = r.rematerialize(*i) || changed;
    }
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace ferrocl
