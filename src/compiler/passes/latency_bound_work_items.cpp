// `ferrocl-latency-bound-work-items`: in the back end, before the loop
// vectorizer, an innermost work-item loop of one block that works on
// vectors of its own (which the vectorizer leaves alone) and whose work is
// one long chain of dependent floating-point steps or integer multiplies
// runs K work-items at a time, their steps interleaved one by one:
//
//     for (x = 0; x < n; x++)          for (x = 0; x < n; x += step)
//         A(x); B(x); C(x)                 if (n - x >= K) {
//                                              A(x) ... A(x + K - 1)
//                                              B(x) ... B(x + K - 1)
//                                              C(x) ... C(x + K - 1)
//                                              step = K
//                                          } else { A(x); B(x); C(x); step = 1 }
//
// Why: a float8 or float16 kernel keeps its own vectors (wide_vector_code.h),
// so the work-item loop is not vectorized, and its body runs one work-item
// after the other. clpeak's compute_sp_v16 is 32 dependent `x = x * x + c`
// on two registers per work-item: each step waits out the last one (4
// cycles), two of the four multiply-add slots of the core stay empty, and
// the out-of-order core cannot reach the next work-item's chain behind 32
// waiting steps. Interleaved in the code, K work-items' chains fill them.
// The code generator does not interleave them itself after unrolling: the
// next work-item's loads come after this one's stores, which it does not
// move them above.
//
// K: how many chains the core needs side by side, from the body's critical
// path (LATENCY cycles for each floating-point step on it) and its
// throughput (PIPES register-wide steps a cycle), at most as many as the
// host's vector registers hold, each work-item needing the values it keeps
// live at once.
//
// Why it is sound: as interleave_work_items.cpp, it changes only the order
// between work-items, and each work-item's own steps keep their order; the
// loop must pass interleavable_work_items (parallel_access.h). What it
// cannot prove, it leaves alone.
#include "latency.h"
#include "parallel_access.h"
#include "passes.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <array>

using namespace llvm;

namespace ferrocl {

namespace {

// A step's latency in cycles and how many the core starts a cycle
// (latency.h; an integer multiply is counted alike, at least as slow).
constexpr unsigned LATENCY = STEP_LATENCY;
constexpr unsigned PIPES = STEP_PIPES;

// At most this many work-items side by side, and this many instructions
// in the interleaved body.
constexpr unsigned MAX_K = 8;
constexpr unsigned MAX_INSTRUCTIONS = 1200;

// A latency-bound body: critical path at least this many times its
// throughput, and at least MIN_CHAIN steps long (a shorter chain the
// out-of-order core overlaps with the next work-items' by itself).
constexpr unsigned BOUND = 3;
constexpr unsigned MIN_CHAIN = 6;

// The loop's body: its instructions but the counter's.
struct Body {
    Loop *loop;
    WorkItemCounter counter;
    SmallVector<Instruction *, 64> code;
};

// How many of the host's vector registers a value of `type` takes (0 for
// what lives in other registers: integer and pointer scalars).
unsigned registers(Type *type, unsigned register_bits)
{
    if (!type->isFPOrFPVectorTy() && !type->isVectorTy())
        return 0;
    uint64_t bits = type->getPrimitiveSizeInBits().getKnownMinValue();
    return std::max<uint64_t>(1, (bits + register_bits - 1) / register_bits);
}

// Whether `i` is a step whose latency counts: a floating-point add,
// multiply or multiply-add, or an integer multiply (clpeak's int16 `x = x
// * x + c`: `vpmulld` waits 10 cycles on Intel's cores, 3 on Zen 3; the
// add beside it, one cycle, is not counted).
bool is_step(const Instruction &i)
{
    if (i.getType()->isIntOrIntVectorTy())
        return i.getOpcode() == Instruction::Mul;
    return is_float_step(i);
}

// The loop in the file's shape, its code safe to interleave and on vectors
// of its own; nothing otherwise.
std::optional<Body> read_body(Loop &l)
{
    if (!is_work_item_loop(&l) || !l.getSubLoops().empty() || l.getNumBlocks() != 1 ||
        !l.getLoopPreheader() || !l.getExitBlock())
        return std::nullopt;
    std::optional<WorkItemCounter> counter = read_work_item_counter(l);
    if (!counter)
        return std::nullopt;
    // The counter's increment only counts and tests, at the block's end.
    for (const User *u : counter->next->users())
        if (u != counter->exit && u != counter->id)
            return std::nullopt;
    if (counter->next->getNextNode() != counter->exit ||
        counter->exit->getNextNode() != counter->branch || !interleavable_work_items(l))
        return std::nullopt;
    // (No value used after the loop: not even the id, which after K
    // work-items would be the first one's.)
    Body body{&l, *counter, {}};
    bool vectors = false;
    for (Instruction &i : *l.getHeader()) {
        if (&i == counter->id || &i == counter->next || &i == counter->exit ||
            &i == counter->branch)
            continue;
        Type *worked = isa<StoreInst>(i) ? cast<StoreInst>(i).getValueOperand()->getType()
                                         : i.getType();
        vectors = vectors || worked->isVectorTy();
        body.code.push_back(&i);
        if (body.code.size() > MAX_INSTRUCTIONS / 2)
            return std::nullopt;
    }
    if (!vectors)
        return std::nullopt; // the vectorizer's to widen
    return body;
}

// How many work-items side by side fill the core, from the body's critical
// path, throughput and live registers; 1 when one at a time is as good.
unsigned side_by_side(const Body &body, const TargetTransformInfo &tti)
{
    unsigned register_bits =
        tti.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector).getFixedValue();
    unsigned available = tti.getNumberOfRegisters(tti.getRegisterClassForType(true));
    if (register_bits == 0 || available < 8)
        return 1;
    // Critical path and throughput, in cycles.
    DenseMap<const Instruction *, unsigned> depth;
    DenseMap<const Instruction *, unsigned> position;
    unsigned path = 0, work = 0;
    for (unsigned k = 0; k < body.code.size(); k++) {
        const Instruction *i = body.code[k];
        unsigned d = 0;
        for (const Value *op : i->operands())
            if (auto *oi = dyn_cast<Instruction>(op))
                if (auto it = depth.find(oi); it != depth.end())
                    d = std::max(d, it->second);
        if (is_step(*i)) {
            d += LATENCY;
            work += registers(i->getType(), register_bits);
        }
        depth[i] = d;
        position[i] = k;
        path = std::max(path, d);
    }
    unsigned throughput = std::max(1u, (work + PIPES - 1) / PIPES);
    if (path < BOUND * throughput || path < MIN_CHAIN * LATENCY)
        return 1;
    // Registers one work-item keeps live at once (its values from their
    // definition to their last use), and those every work-item shares
    // (floating-point values from before the loop).
    SmallVector<unsigned, 64> last(body.code.size(), 0);
    unsigned shared = 0;
    SmallPtrSet<const Value *, 8> seen;
    for (unsigned k = 0; k < body.code.size(); k++)
        for (const Value *op : body.code[k]->operands()) {
            auto *oi = dyn_cast<Instruction>(op);
            if (auto it = oi ? position.find(oi) : position.end(); it != position.end())
                last[it->second] = std::max(last[it->second], k);
            else if (!isa<Constant>(op) && !isa<BasicBlock>(op) && seen.insert(op).second)
                shared += registers(op->getType(), register_bits);
        }
    unsigned own = 0;
    for (unsigned k = 0; k < body.code.size(); k++) {
        unsigned live = 0;
        for (unsigned d = 0; d <= k; d++)
            if (last[d] > k || d == k)
                live += registers(body.code[d]->getType(), register_bits);
        own = std::max(own, live);
    }
    if (own == 0 || shared + 1 >= available)
        return 1;
    unsigned fit = (available - 1 - shared) / own;
    unsigned wanted = (path + throughput - 1) / throughput;
    unsigned k = std::min({wanted, fit, MAX_K, MAX_INSTRUCTIONS / unsigned(body.code.size())});
    return k >= 2 ? k : 1;
}

// Runs `body`'s loop K work-items at a time where K remain, their
// instructions interleaved, as the file's comment shows.
void interleave(Body &body, unsigned k)
{
    auto [id, next, exit, branch, end] = body.counter;
    BasicBlock *block = body.loop->getHeader();
    Function &f = *block->getParent();
    LLVMContext &ctx = f.getContext();
    Type *id_type = id->getType();
    // (Read before the loop's latch changes.)
    SmallPtrSet<const MDNode *, 4> groups = parallel_groups(*body.loop);

    // block: the id and the test for room; one: the body for one
    // work-item; latch: the step and the exit test.
    BasicBlock *one = block->splitBasicBlock(block->getFirstNonPHIIt(), "wi.one");
    BasicBlock *latch = one->splitBasicBlock(next->getIterator(), "wi.latch");
    IRBuilder<> b(block->getTerminator());
    Value *room =
        b.CreateICmpUGE(b.CreateSub(end, id), ConstantInt::get(id_type, k), "wi.room");
    BasicBlock *many = BasicBlock::Create(ctx, "wi.interleaved", &f, latch);
    block->getTerminator()->eraseFromParent();
    BranchInst::Create(many, one, room, block);

    // The copies, instruction by instruction; each work-item's accesses in
    // an alias scope of their own.
    DisjointScopes scopes(ctx, k, "ferrocl.work-items");
    IRBuilder<> c(many);
    std::array<ValueToValueMapTy, MAX_K> maps;
    for (unsigned u = 0; u < k; u++)
        maps[u][id] = u == 0 ? static_cast<Value *>(id)
                             : c.CreateAdd(id, ConstantInt::get(id_type, u), "wi.id", true, true);
    for (Instruction *i : body.code)
        for (unsigned u = 0; u < k; u++) {
            Instruction *copy = i->clone();
            c.Insert(copy);
            if (i->hasName())
                copy->setName(i->getName() + ".wi");
            RemapInstruction(copy, maps[u], RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
            maps[u][i] = copy;
            if ((isa<LoadInst>(copy) || isa<StoreInst>(copy)) && in_groups(*copy, groups))
                scopes.add(*copy, u);
        }
    c.CreateBr(latch);

    // The latch steps by K after the copies, by 1 after one work-item.
    PHINode *step = PHINode::Create(id_type, 2, "wi.step");
    step->insertInto(latch, latch->begin());
    step->addIncoming(ConstantInt::get(id_type, 1), one);
    step->addIncoming(ConstantInt::get(id_type, k), many);
    next->setOperand(1, step);
}

} // namespace

PreservedAnalyses LatencyBoundWorkItemsPass::run(Function &f, FunctionAnalysisManager &fam)
{
    if (f.isDeclaration())
        return PreservedAnalyses::all();
    LoopInfo &loops = fam.getResult<LoopAnalysis>(f);
    const TargetTransformInfo &tti = fam.getResult<TargetIRAnalysis>(f);
    SmallVector<std::pair<Body, unsigned>, 4> found;
    for (Loop *l : loops.getLoopsInPreorder())
        if (std::optional<Body> body = read_body(*l))
            if (unsigned k = side_by_side(*body, tti); k > 1)
                found.emplace_back(std::move(*body), k);
    if (found.empty())
        return PreservedAnalyses::all();
    for (auto &[body, k] : found)
        interleave(body, k);
    return PreservedAnalyses::none();
}

} // namespace ferrocl
