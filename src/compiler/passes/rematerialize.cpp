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
//
// A value the whole group computes alike where it runs together (a
// division of the group id, a load from a by-value argument, an address
// built on them: group_uniformity.h), read in another block through such
// arithmetic, is named as uniform (UNIFORM_PREFIX), so the region
// transform keeps it once per group, and counts as an operand a copy may
// read: `lid + (group / n) * size` is computed again after a barrier from
// the group's one copy of `group / n`. Kept per work-item, each of dpnp's
// reductions read its index from the frame, and every load of the input
// was a gather. Not in kernels whose regions run a sub-group at a time,
// where the group's one copy moves on with the first sub-group.
#include "group_uniformity.h"
#include "kernel_abi.h"
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

// Whether `v` is kept once per group: named so by this pass or an earlier
// one (implicit_barriers.cpp, uniform_counters.cpp).
bool kept_uniform(const Value *v) { return v->getName().starts_with(UNIFORM_PREFIX); }

// Names as uniform the values a cheap computation read in another block
// needs that the group computes alike where it runs together but that are
// not cheap themselves (see the top of this file).
class UniformOperands {
  public:
    explicit UniformOperands(Function &f) : f_(f), u_(f) {}

    void name_for_uses_elsewhere()
    {
        for (Instruction &i : instructions(f_))
            for (const User *user : i.users())
                if (!isa<PHINode>(user) && cast<Instruction>(user)->getParent() != i.getParent()) {
                    recomputable(&i, 0);
                    break;
                }
    }

  private:
    // Whether `v` can be computed again in another block from constants,
    // parameters and values kept once per group, naming the uniform ones it
    // needs. Fails closed: deep or unknown computations are not.
    bool recomputable(Value *v, unsigned depth)
    {
        auto *i = dyn_cast<Instruction>(v);
        if (!i || kept_uniform(i))
            return true;
        if (auto found = done_.find(i); found != done_.end())
            return found->second;
        bool ok = false;
        if (depth <= MAX_DEPTH && !isa<PHINode>(i) && cheap_shape(*i)) {
            ok = true;
            for (Value *op : i->operands())
                ok = recomputable(op, depth + 1) && ok;
        }
        if (!ok && !isa<PHINode>(i) && u_.together(i->getParent()) &&
            (i->getType()->isIntegerTy() || i->getType()->isPointerTy()) && u_.uniform(i)) {
            i->setName(Twine(UNIFORM_PREFIX) + "r" + Twine(named_++));
            ok = true;
        }
        done_[i] = ok;
        return ok;
    }

    static constexpr unsigned MAX_DEPTH = 12;
    Function &f_;
    GroupUniformity u_;
    DenseMap<const Instruction *, bool> done_;
    unsigned named_ = 0;
};

class Rematerializer {
  public:
    explicit Rematerializer(Function &f)
    {
        // Cheap: a cheap operation on constants, parameters, values kept
        // once per group and cheap values.
        bool grew = true;
        while (grew) {
            grew = false;
            for (Instruction &i : instructions(f)) {
                if (cheap_.contains(&i) || !cheap_shape(i))
                    continue;
                bool operands = true;
                for (const Value *op : i.operands())
                    if (auto *d = dyn_cast<Instruction>(op))
                        operands = operands && (cheap_.contains(d) || kept_uniform(d));
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
        if (!f.hasFnAttribute(SUB_GROUP_REGIONS_ATTRIBUTE))
            UniformOperands(f).name_for_uses_elsewhere();
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
