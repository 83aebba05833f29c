// See parallel_access.h.
#include "parallel_access.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Metadata.h>

using namespace llvm;

namespace ferrocl {

ParallelAccess::ParallelAccess(LLVMContext &ctx) : ctx(ctx)
{
    MDBuilder md(ctx);
    group = MDNode::getDistinct(ctx, {});
    MDNode *domain = md.createAnonymousAliasScopeDomain("ferrocl work-group");
    const char *names[4] = {"memory", "frame", "uniform", "staging"};
    MDNode *scopes[4];
    for (int k = 0; k < 4; k++)
        scopes[k] = md.createAnonymousAliasScope(domain, names[k]);
    for (int k = 0; k < 4; k++) {
        own[k] = MDNode::get(ctx, {scopes[k]});
        SmallVector<Metadata *, 3> rest;
        for (int o = 0; o < 4; o++)
            if (o != k)
                rest.push_back(scopes[o]);
        others[k] = MDNode::get(ctx, rest);
    }
}

void ParallelAccess::tag(Instruction &i, AccessKind kind) const
{
    i.setMetadata(LLVMContext::MD_access_group, group);
    if (i.getMetadata(LLVMContext::MD_alias_scope) || i.getMetadata(LLVMContext::MD_noalias))
        return;
    i.setMetadata(LLVMContext::MD_alias_scope, own[int(kind)]);
    i.setMetadata(LLVMContext::MD_noalias, others[int(kind)]);
}

void ParallelAccess::tag_memory(Instruction &i) const
{
    Value *pointer = nullptr;
    if (auto *load = dyn_cast<LoadInst>(&i); load && load->isSimple())
        pointer = load->getPointerOperand();
    else if (auto *store = dyn_cast<StoreInst>(&i); store && store->isSimple())
        pointer = store->getPointerOperand();
    if (!pointer)
        return;
    unsigned space = pointer->getType()->getPointerAddressSpace();
    if (space >= 1 && space <= 3)
        tag(i, AccessKind::Memory);
}

void ParallelAccess::tag_slot(Instruction &i, AccessKind kind) const { tag(i, kind); }

void ParallelAccess::tag_group(Instruction &i) const
{
    i.setMetadata(LLVMContext::MD_access_group, group);
}

MDNode *ParallelAccess::loop_metadata(bool vectorized) const
{
    ConstantAsMetadata *one = ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(ctx), 1));
    Metadata *parallel[] = {MDString::get(ctx, "llvm.loop.parallel_accesses"), group};
    Metadata *once[] = {MDString::get(ctx, "llvm.loop.interleave.count"), one};
    Metadata *no_runtime_unroll[] = {MDString::get(ctx, "llvm.loop.unroll.runtime.disable")};
    Metadata *scalar[] = {MDString::get(ctx, "llvm.loop.vectorize.width"), one};
    auto *temporary = MDNode::getTemporary(ctx, {}).release();
    SmallVector<Metadata *, 5> items = {temporary, MDNode::get(ctx, parallel),
                                        MDNode::get(ctx, once), MDNode::get(ctx, no_runtime_unroll)};
    if (!vectorized)
        items.push_back(MDNode::get(ctx, scalar));
    MDNode *loop = MDNode::getDistinct(ctx, items);
    loop->replaceOperandWith(0, loop);
    MDNode::deleteTemporary(temporary);
    return loop;
}

bool is_work_item_loop(const Loop *l)
{
    return findOptionMDForLoop(l, "llvm.loop.parallel_accesses");
}

SmallPtrSet<const MDNode *, 4> parallel_groups(const Loop &l)
{
    SmallPtrSet<const MDNode *, 4> groups;
    if (const MDNode *option = findOptionMDForLoop(&l, "llvm.loop.parallel_accesses"))
        for (unsigned k = 1; k < option->getNumOperands(); k++)
            if (const auto *group = dyn_cast<MDNode>(option->getOperand(k)))
                groups.insert(group);
    return groups;
}

bool in_groups(const Instruction &i, const SmallPtrSetImpl<const MDNode *> &groups)
{
    const MDNode *md = i.getMetadata(LLVMContext::MD_access_group);
    if (!md)
        return false;
    if (groups.count(md))
        return true;
    // A list of groups.
    for (const MDOperand &op : md->operands())
        if (const auto *g = dyn_cast_or_null<MDNode>(op.get()); g && groups.count(g))
            return true;
    return false;
}

bool interleavable_work_items(const Loop &l)
{
    SmallPtrSet<const MDNode *, 4> groups = parallel_groups(l);
    for (const BasicBlock *b : l.blocks())
        for (const Instruction &i : *b) {
            if (isa<AllocaInst>(i))
                return false;
            if (const auto *store = dyn_cast<StoreInst>(&i)) {
                if (!store->isSimple() || !in_groups(i, groups))
                    return false;
            } else if (const auto *load = dyn_cast<LoadInst>(&i)) {
                if (!load->isSimple())
                    return false;
            } else if (i.mayHaveSideEffects()) {
                return false;
            } else if (const auto *call = dyn_cast<CallBase>(&i); call && call->isConvergent()) {
                return false;
            }
            for (const User *u : i.users())
                if (!l.contains(cast<Instruction>(u)))
                    return false;
        }
    return true;
}

DisjointScopes::DisjointScopes(LLVMContext &ctx, unsigned count, StringRef name)
{
    MDBuilder md(ctx);
    MDNode *domain = md.createAnonymousAliasScopeDomain(name);
    SmallVector<MDNode *, 8> scopes;
    for (unsigned u = 0; u < count; u++)
        scopes.push_back(md.createAnonymousAliasScope(domain));
    for (unsigned u = 0; u < count; u++) {
        SmallVector<Metadata *, 8> rest;
        for (unsigned v = 0; v < count; v++)
            if (v != u)
                rest.push_back(scopes[v]);
        own.push_back(MDNode::get(ctx, {scopes[u]}));
        others.push_back(MDNode::get(ctx, rest));
    }
}

void DisjointScopes::add(Instruction &i, unsigned part) const
{
    if (part >= own.size())
        return;
    i.setMetadata(LLVMContext::MD_alias_scope,
                  MDNode::concatenate(i.getMetadata(LLVMContext::MD_alias_scope), own[part]));
    i.setMetadata(LLVMContext::MD_noalias,
                  MDNode::concatenate(i.getMetadata(LLVMContext::MD_noalias), others[part]));
}

std::optional<WorkItemCounter> read_work_item_counter(const Loop &l)
{
    BasicBlock *latch = l.getLoopLatch();
    auto *branch = latch ? dyn_cast<BranchInst>(latch->getTerminator()) : nullptr;
    if (!branch || !branch->isConditional() || l.getExitingBlock() != latch)
        return std::nullopt;
    auto *cmp = dyn_cast<ICmpInst>(branch->getCondition());
    if (!cmp || !cmp->isEquality() || cmp->getParent() != latch || !cmp->hasOneUse())
        return std::nullopt;
    PHINode *id = nullptr;
    for (PHINode &phi : l.getHeader()->phis()) {
        if (id)
            return std::nullopt; // another value carried from work-item to work-item
        id = &phi;
    }
    if (!id || !id->getType()->isIntegerTy() || id->getNumIncomingValues() != 2)
        return std::nullopt;
    auto *next = dyn_cast<BinaryOperator>(id->getIncomingValueForBlock(latch));
    auto *one = next ? dyn_cast<ConstantInt>(next->getOperand(1)) : nullptr;
    if (!next || next->getOpcode() != Instruction::Add || next->getOperand(0) != id || !one ||
        !one->isOne() || next->getParent() != latch)
        return std::nullopt;
    bool continues_on_ne = cmp->getPredicate() == ICmpInst::ICMP_NE;
    if (l.contains(branch->getSuccessor(continues_on_ne ? 1 : 0)))
        return std::nullopt;
    Value *end = cmp->getOperand(0) == next ? cmp->getOperand(1) : cmp->getOperand(0);
    if (!l.isLoopInvariant(end) || (cmp->getOperand(0) != next && cmp->getOperand(1) != next))
        return std::nullopt;
    return WorkItemCounter{id, next, cmp, branch, end};
}

} // namespace ferrocl
