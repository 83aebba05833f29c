// ferrocl's kernel compiler steps run inside the process: clang-19's driver
// and cc1 from libclang-cpp, LLVM 19's opt, llvm-link and bitcode pruning
// from libLLVM. Built by build.rs into a shared object that
// src/compiler/inprocess.rs loads on the first build (dlopen), so programs
// that only load cached kernels never map LLVM. Each function mirrors one
// tool run of driver.rs's subprocess path, with the same inputs and
// outputs (files), so either path gives the same results.
//
// Every function returns 0 on success; `*log` receives a malloc'd
// NUL-terminated text (diagnostics, possibly empty) to release with
// ferrocl_llvm_free.

#include <atomic>
#include <sstream>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/FrontendTool/Utils.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/ADT/bit.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "passes/kernel_abi.h"
#include "passes/kernel_description.h"
#include "passes/kernel_symbols.h"
#include "passes/passes.h"

#ifdef FERROCL_HAVE_LLD
#include <lld/Common/Driver.h>
LLD_HAS_DRIVER(elf)
#endif

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace llvm;

namespace {

char *to_c(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p) {
        std::memcpy(p, s.data(), s.size());
        p[s.size()] = 0;
    }
    return p;
}

int finish(int status, const std::string &log, char **out)
{
    if (out)
        *out = to_c(log);
    return status;
}

// `path`'s module in `ctx`, which from now on reports to `log` (not to
// the application's stderr) what passes and the linker have to say. Null
// if it does not parse or is not valid IR: checked first, as `opt` and
// `llvm-link` do, since passes may crash on invalid IR, here taking the
// application with them.
std::unique_ptr<Module> parse(const char *path, LLVMContext &ctx, raw_ostream &log)
{
    ctx.setDiagnosticHandlerCallBack(
        [](const DiagnosticInfo *info, void *context) {
            auto &out = *static_cast<raw_ostream *>(context);
            DiagnosticPrinterRawOStream printer(out);
            out << LLVMContext::getDiagnosticMessagePrefix(info->getSeverity()) << ": ";
            info->print(printer);
            out << "\n";
        },
        &log);
    SMDiagnostic err;
    auto m = parseIRFile(path, err, ctx);
    if (!m) {
        err.print("ferrocl", log);
    } else if (verifyModule(*m, &log)) {
        log << path << ": error: input module is broken!\n";
        m = nullptr;
    }
    return m;
}

// How `write` writes a module.
enum class Format { Text, Bitcode };

// `m` to the file `path`: as text, or as bitcode with its use-list orders
// (see copy_use_list_orders).
bool write(const Module &m, const char *path, Format format, raw_ostream &log)
{
    std::error_code ec;
    raw_fd_ostream out(path, ec);
    if (ec) {
        log << path << ": " << ec.message() << "\n";
        return false;
    }
    if (format == Format::Text)
        m.print(out, nullptr);
    else
        WriteBitcodeToFile(m, out, true);
    return !out.has_error();
}

// Drops the declarations nothing in `m` uses (a copy's leftovers).
void drop_unused_declarations(Module &m)
{
    for (Function &f : make_early_inc_range(m.functions()))
        if (f.isDeclaration() && f.use_empty())
            f.eraseFromParent();
    for (GlobalVariable &v : make_early_inc_range(m.globals()))
        if (v.isDeclaration() && v.use_empty())
            v.eraseFromParent();
}

// Whether `m` has what the copies here do not handle: aliases, ifuncs,
// comdats.
bool has_aliases_ifuncs_or_comdats(const Module &m)
{
    return !m.alias_empty() || !m.ifunc_empty() || !m.getComdatSymbolTable().empty();
}

// The target machine `opt` builds for a module without -mcpu: the module's
// triple, generic CPU, so that passes see the target's cost model.
std::unique_ptr<TargetMachine> target_machine(const Module &m)
{
    std::string err;
    const Target *t = TargetRegistry::lookupTarget(m.getTargetTriple(), err);
    if (!t)
        return nullptr;
    return std::unique_ptr<TargetMachine>(
        t->createTargetMachine(m.getTargetTriple(), "", "", TargetOptions(), std::nullopt));
}

// Whether run_passes verifies the module after every pass, not only after
// the pipeline (the pass tests: ferrocl_llvm_verify_each).
std::atomic<bool> verify_each{false};

// `passes` (LLVM's and ferrocl's, passes/registry.cpp) run on `m`, as
// `opt -passes=<passes>` would, then the verifier; false (with the reason
// in `log`) if the pipeline does not parse or leaves invalid IR. The
// callers then fall back (driver.rs `ready`) or fail the build.
bool run_passes(Module &m, StringRef passes, raw_ostream &log)
{
    auto tm = target_machine(m);
    LoopAnalysisManager lam;
    FunctionAnalysisManager fam;
    CGSCCAnalysisManager cgam;
    ModuleAnalysisManager mam;
    // As in `opt`: among others, the instrumentation that skips optnone
    // functions (-cl-opt-disable builds).
    PassInstrumentationCallbacks callbacks;
    StandardInstrumentations instrumentations(m.getContext(), false, false);
    instrumentations.registerCallbacks(callbacks, &mam);
    // Verified after each pass (tests): the first pass that breaks the
    // module is named and the optional passes after it are skipped. Not
    // LLVM's own verify-each, whose failure is a fatal error: a pass bug
    // must fail the build, not end the application.
    std::string broken_after;
    if (verify_each.load()) {
        callbacks.registerAfterPassCallback(
            [&](StringRef pass, Any, const PreservedAnalyses &) {
                if (broken_after.empty() && verifyModule(m, &log))
                    broken_after = pass.str();
            });
        callbacks.registerShouldRunOptionalPassCallback(
            [&](StringRef, Any) { return broken_after.empty(); });
    }
    PassBuilder pb(tm.get(), PipelineTuningOptions(), std::nullopt, &callbacks);
    ferrocl::register_passes(pb);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    ModulePassManager mpm;
    if (Error e = pb.parsePassPipeline(mpm, passes)) {
        log << toString(std::move(e)) << "\n";
        return false;
    }
    mpm.run(m, mam);
    if (!broken_after.empty()) {
        log << "ferrocl: the module is broken after the pass " << broken_after << "\n";
        return false;
    }
    // Invalid IR is reported, never a fatal error (as a VerifierPass in the
    // pipeline would make it).
    return !verifyModule(m, &log);
}

// One cc1 job (`args` after "-cc1"), like clang's cc1_main, with the
// diagnostics and the "N errors generated" line into `log`. When `passes`
// is set and the job emits LLVM IR, the module clang generates is not
// written as it is: `passes` run on it in memory first (see run_passes).
bool run_cc1(const char *argv0, ArrayRef<const char *> args, const char *passes,
             raw_ostream &log)
{
    auto clang = std::make_unique<clang::CompilerInstance>();
    IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
    IntrusiveRefCntPtr<clang::DiagnosticOptions> opts = new clang::DiagnosticOptions();
    auto *buffer = new clang::TextDiagnosticBuffer;
    clang::DiagnosticsEngine parse_diags(ids, &*opts, buffer);
    bool ok = clang::CompilerInvocation::CreateFromArgs(clang->getInvocation(), args, parse_diags,
                                                        argv0);
    // The driver asks cc1 to leak its AST and module at exit (a process
    // about to end); here the process lives on. CreateFromArgs copied the
    // flag into the code generator's options too (its target machine and
    // pass state, about 2 MiB a build, were leaked).
    clang->getFrontendOpts().DisableFree = false;
    clang->getCodeGenOpts().DisableFree = false;
    clang->createDiagnostics(new clang::TextDiagnosticPrinter(log, &clang->getDiagnosticOpts()),
                             true);
    clang->setVerboseOutputStream(log);
    buffer->FlushDiagnostics(clang->getDiagnostics());
    if (!ok)
        return false;
    // ferrocl's passes in the back end's -O3 pipeline (passes/passes.h).
    clang->getCodeGenOpts().PassBuilderCallbacks.push_back(ferrocl::add_back_end_passes);
    if (!passes || clang->getFrontendOpts().ProgramAction != clang::frontend::EmitLLVM) {
        ok = clang::ExecuteCompilerInvocation(clang.get());
        log.flush();
        return ok;
    }
    LLVMContext ctx;
    clang::EmitLLVMOnlyAction generate(&ctx);
    ok = clang->ExecuteAction(generate);
    std::unique_ptr<Module> m = ok ? generate.takeModule() : nullptr;
    ok = m && run_passes(*m, passes, log) &&
         write(*m, clang->getFrontendOpts().OutputFile.c_str(), Format::Text, log);
    log.flush();
    return ok;
}

// The builtins library as the files it was built from, in one context of
// their own, each read lazily (its index, then the functions a program
// needs) the first time a program needs one of its definitions.
struct Library {
    LLVMContext ctx;
    std::vector<StringRef> bitcode;
    std::vector<std::unique_ptr<Module>> files;
    // The file that defines each name.
    StringMap<unsigned> defined_in;

    // File `i`, read if it was not; null (and the reason in `log`) if it
    // cannot be.
    Module *file(unsigned i, raw_ostream &log)
    {
        if (!files[i]) {
            auto m = getOwningLazyBitcodeModule(
                MemoryBuffer::getMemBuffer(bitcode[i], "builtins", false), ctx);
            if (!m) {
                log << toString(m.takeError()) << "\n";
                return nullptr;
            }
            files[i] = std::move(*m);
        }
        return files[i].get();
    }
};

using GlobalSet = SmallPtrSet<const GlobalValue *, 32>;

// Offers `offer` each global value that the values in `start` refer to,
// transitively, once each: through instructions' operands, initializers,
// aliasees, personalities and constant expressions. `offer` returns
// whether to look into the value it got (reading a lazily loaded
// function's body first).
template <typename Offer> Error walk_references(ArrayRef<GlobalValue *> start, Offer offer)
{
    std::vector<GlobalValue *> work;
    SmallPtrSet<const GlobalValue *, 32> offered;
    auto take = [&](GlobalValue *g) {
        if (g && offered.insert(g).second && offer(g))
            work.push_back(g);
    };
    for (GlobalValue *g : start)
        take(g);
    SmallPtrSet<const Constant *, 32> seen;
    std::vector<const Constant *> consts;
    auto visit = [&](const Value *v) {
        if (auto *c = dyn_cast_or_null<Constant>(v))
            if (seen.insert(c).second)
                consts.push_back(c);
        while (!consts.empty()) {
            const Constant *c = consts.back();
            consts.pop_back();
            if (auto *g = dyn_cast<GlobalValue>(c)) {
                take(const_cast<GlobalValue *>(g));
                continue;
            }
            for (const Use &op : c->operands())
                if (auto *oc = dyn_cast<Constant>(op.get()))
                    if (seen.insert(oc).second)
                        consts.push_back(oc);
        }
    };
    while (!work.empty()) {
        GlobalValue *g = work.back();
        work.pop_back();
        if (Error e = g->materialize())
            return e;
        if (auto *f = dyn_cast<Function>(g)) {
            if (f->hasPersonalityFn())
                visit(f->getPersonalityFn());
            for (const BasicBlock &bb : *f)
                for (const Instruction &i : bb)
                    for (const Use &op : i.operands())
                        visit(op.get());
        } else if (auto *v = dyn_cast<GlobalVariable>(g)) {
            if (v->hasInitializer())
                visit(v->getInitializer());
        } else if (auto *a = dyn_cast<GlobalAlias>(g)) {
            visit(a->getAliasee());
        }
    }
    return Error::success();
}

// Adds to `needed` the definitions in `lib` among `roots` (null: not in
// the library) and every definition they refer to, transitively, reading
// each function's body on the way; to `referenced`, those and the
// declarations they refer to.
Error needed_closure(Module &lib, const std::vector<GlobalValue *> &roots, GlobalSet &needed,
                     GlobalSet &referenced)
{
    return walk_references(roots, [&](GlobalValue *g) {
        if (g->getParent() != &lib)
            return false;
        referenced.insert(g);
        return !g->isDeclaration() && needed.insert(g).second;
    });
}

// Puts the uses of each argument, block and instruction of `f`'s copy
// (through `map`) in the order of the original's. A module read from
// bitcode has the use-list order that was written (llvm-link keeps it);
// a copy has the order in which it was built. Optimizations visit uses in
// that order, so without this a function linked from a copy could be
// optimized differently from one linked from the library.
void copy_use_list_orders(const Function &f, ValueToValueMapTy &map)
{
    DenseMap<const Use *, unsigned> position;
    auto sort_like = [&](const Value &original) {
        if (!original.hasNUsesOrMore(2))
            return;
        Value *copy = map.lookup(&original);
        if (!copy)
            return;
        position.clear();
        unsigned i = 0;
        for (const Use &use : original.uses()) {
            auto *user = dyn_cast_or_null<User>(map.lookup(use.getUser()));
            if (!user)
                return; // a use outside the function: left as it is
            position[&user->getOperandUse(use.getOperandNo())] = i++;
        }
        copy->sortUseList([&](const Use &l, const Use &r) {
            return position.lookup(&l) < position.lookup(&r);
        });
    };
    for (const Argument &a : f.args())
        sort_like(a);
    for (const BasicBlock &bb : f) {
        sort_like(bb);
        for (const Instruction &i : bb)
            sort_like(i);
    }
}

// A module with `lib`'s definitions in `needed` and declarations of the
// rest of `referenced`: CloneModule's copy, without the declarations of
// every other function of the library that CloneModule makes and the
// caller would drop. Null if `lib` has what this does not copy (aliases,
// ifuncs, comdats).
std::unique_ptr<Module> clone_needed(const Module &lib, const GlobalSet &needed,
                                     const GlobalSet &referenced)
{
    if (has_aliases_ifuncs_or_comdats(lib))
        return nullptr;
    auto out = std::make_unique<Module>(lib.getModuleIdentifier(), lib.getContext());
    out->setSourceFileName(lib.getSourceFileName());
    out->setDataLayout(lib.getDataLayout());
    out->setTargetTriple(lib.getTargetTriple());
    out->setModuleInlineAsm(lib.getModuleInlineAsm());
    out->IsNewDbgInfoFormat = lib.IsNewDbgInfoFormat;
    ValueToValueMapTy map;
    // Declarations first, in the library's order, so that definitions can
    // refer to any of them.
    for (const GlobalVariable &v : lib.globals()) {
        if (!referenced.count(&v))
            continue;
        auto *copy = new GlobalVariable(*out, v.getValueType(), v.isConstant(), v.getLinkage(),
                                        nullptr, v.getName(), nullptr, v.getThreadLocalMode(),
                                        v.getType()->getAddressSpace());
        copy->copyAttributesFrom(&v);
        map[&v] = copy;
    }
    for (const Function &f : lib.functions()) {
        if (!referenced.count(&f))
            continue;
        Function *copy = Function::Create(f.getFunctionType(), f.getLinkage(),
                                          f.getAddressSpace(), f.getName(), out.get());
        copy->copyAttributesFrom(&f);
        map[&f] = copy;
    }
    for (const GlobalVariable &v : lib.globals()) {
        if (!needed.count(&v))
            continue;
        auto *copy = cast<GlobalVariable>(map[&v]);
        if (v.hasInitializer())
            copy->setInitializer(MapValue(v.getInitializer(), map));
        SmallVector<std::pair<unsigned, MDNode *>, 1> metadata;
        v.getAllMetadata(metadata);
        for (auto &[kind, node] : metadata)
            copy->addMetadata(kind, *MapMetadata(node, map));
    }
    for (const Function &f : lib.functions()) {
        if (!needed.count(&f))
            continue;
        auto *copy = cast<Function>(map[&f]);
        auto arg = copy->arg_begin();
        for (const Argument &a : f.args()) {
            arg->setName(a.getName());
            map[&a] = &*arg++;
        }
        SmallVector<ReturnInst *, 8> returns;
        CloneFunctionInto(copy, &f, map, CloneFunctionChangeType::ClonedModule, returns);
        if (f.hasPersonalityFn())
            copy->setPersonalityFn(MapValue(f.getPersonalityFn(), map));
        copy_use_list_orders(f, map);
    }
    for (const NamedMDNode &node : lib.named_metadata()) {
        NamedMDNode *copy = out->getOrInsertNamedMetadata(node.getName());
        for (const MDNode *op : node.operands())
            copy->addOperand(MapMetadata(op, map));
    }
    return out;
}

// Whether each part that needs `g` may have a copy of its own: functions
// other parts cannot see, and constants whose address nobody compares.
bool duplicable(const GlobalValue &g)
{
    if (isa<Function>(g))
        return g.hasLocalLinkage() || g.hasLinkOnceLinkage();
    auto *v = dyn_cast<GlobalVariable>(&g);
    return v && g.hasLocalLinkage() && v->isConstant() && g.hasGlobalUnnamedAddr();
}

// The global values `root` refers to, transitively (itself included).
// Declarations, and other values that other objects may see, are
// included but not looked into: a reference to them is a symbol.
GlobalSet reach(GlobalValue *root)
{
    GlobalSet reached;
    cantFail(walk_references(root, [&](GlobalValue *g) {
        reached.insert(g);
        return g == root || g->hasLocalLinkage() || duplicable(*g);
    }));
    return reached;
}

// A driver run's jobs, each its program and then its arguments.
using Plan = std::vector<std::vector<std::string>>;

// Stands for the build's directory in a remembered plan.
const char dir_mark[] = "\x01" "ferrocl-build-dir\x01";

// `s` with every `from` replaced by `to`.
std::string replace_all(StringRef s, StringRef from, StringRef to)
{
    std::string out;
    if (from.empty())
        return s.str();
    for (size_t at; (at = s.find(from)) != StringRef::npos; s = s.drop_front(at + from.size()))
        out.append(s.data(), at).append(to.data(), to.size());
    return out.append(s.data(), s.size());
}

// The environment the driver reads besides its arguments (include and
// library paths, overrides), and the working directory, which cc1's
// arguments name (-fdebug-compilation-dir).
std::string driver_environment()
{
    std::string key;
    SmallString<256> cwd;
    if (!sys::fs::current_path(cwd))
        key.append(cwd.data(), cwd.size());
    key.push_back('\0');
    for (const char *name : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH",
                             "LIBRARY_PATH", "COMPILER_PATH", "CCC_OVERRIDE_OPTIONS",
                             "CLANG_CONFIG_FILE_SYSTEM_DIR", "CLANG_CONFIG_FILE_USER_DIR",
                             "SOURCE_DATE_EPOCH", "TMPDIR"}) {
        if (const char *v = std::getenv(name))
            key.append(name).append("=").append(v);
        key.push_back('\0');
    }
    return key;
}

// The jobs clang's driver makes of `argv`; null, with `status` 1 and the
// diagnostics in `log`, if it makes none. The driver looks for a GCC
// installation, the host CPU's name and features and much more on every
// run (about 500 file system calls, mostly failing lookups, for each
// compile and link job of a build); for the same arguments it makes the
// same jobs. So when the build's files are all in the directory `dir`
// (not null), the jobs are remembered with `dir` marked in them, under
// the arguments with `dir` marked likewise, and the next build with the
// same arguments in another directory reuses them, `dir` put back. Only
// runs that said nothing (a warning would not be repeated) and made no
// temporary files (the next build would share them) are remembered.
std::shared_ptr<const Plan> driver_plan(int argc, const char *const *argv, const char *dir,
                                        raw_ostream &log, int &status)
{
    static std::mutex lock;
    static StringMap<std::shared_ptr<const Plan>> plans;
    StringRef d = dir ? StringRef(dir) : StringRef();
    std::string key;
    if (!d.empty()) {
        key = driver_environment();
        for (int i = 0; i < argc; i++) {
            key += replace_all(argv[i], d, dir_mark);
            key.push_back('\0');
        }
        std::lock_guard<std::mutex> hold(lock);
        auto it = plans.find(key);
        if (it != plans.end()) {
            auto plan = std::make_shared<Plan>(*it->second);
            for (auto &job : *plan)
                for (auto &a : job)
                    if (a.find(dir_mark) != std::string::npos)
                        a = replace_all(a, dir_mark, d);
            return plan;
        }
    }
    std::string said;
    raw_string_ostream said_out(said);
    IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
    IntrusiveRefCntPtr<clang::DiagnosticOptions> opts = new clang::DiagnosticOptions();
    auto *printer = new clang::TextDiagnosticPrinter(said_out, &*opts);
    printer->setPrefix("clang");
    clang::DiagnosticsEngine diags(ids, &*opts, printer);
    clang::driver::Driver driver(argv[0], sys::getDefaultTargetTriple(), diags);
    std::unique_ptr<clang::driver::Compilation> c(
        driver.BuildCompilation(ArrayRef<const char *>(argv, argc)));
    said_out.flush();
    log << said;
    if (!c || c->containsError() || diags.hasErrorOccurred()) {
        status = 1;
        return nullptr;
    }
    auto plan = std::make_shared<Plan>();
    for (const clang::driver::Command &job : c->getJobs()) {
        std::vector<std::string> args{job.getExecutable()};
        for (const char *a : job.getArguments())
            args.emplace_back(a);
        plan->push_back(std::move(args));
    }
    if (!d.empty() && said.empty() && c->getTempFiles().empty()) {
        auto marked = std::make_shared<Plan>(*plan);
        for (auto &job : *marked)
            for (auto &a : job)
                a = replace_all(a, d, dir_mark);
        std::lock_guard<std::mutex> hold(lock);
        plans.try_emplace(key, std::move(marked));
    }
    return plan;
}

} // namespace

extern "C" {

// Once per process, before anything else.
int ferrocl_llvm_init(void)
{
    static std::once_flag once;
    std::call_once(once, [] {
        InitializeNativeTarget();
        InitializeNativeTargetAsmPrinter();
        InitializeNativeTargetAsmParser();
        // The x86 back end's domain reassignment (general-purpose
        // registers' logic moved to AVX-512 mask registers) took 40% of
        // the back end on opencl_brute's SHA-256 program (157 of 400 ms),
        // walking the closure of every register in its unrolled rounds,
        // for code that ran no faster.
        std::vector<std::string> words = {"ferrocl", "-disable-x86-domain-reassignment"};
        // FERROCL_LLVM_OPTIONS: more of LLVM's own options, separated by
        // spaces, for whoever studies what the passes made of a kernel
        // (`-print-before=loop-vectorize -filter-print-funcs=...`).
        if (const char *more = std::getenv("FERROCL_LLVM_OPTIONS")) {
            std::istringstream in(more);
            for (std::string w; in >> w;)
                words.push_back(w);
        }
        std::vector<const char *> args;
        for (const std::string &w : words)
            args.push_back(w.c_str());
        cl::ParseCommandLineOptions(static_cast<int>(args.size()), args.data(), "", nullptr);
    });
    return 0;
}

void ferrocl_llvm_free(char *p) { std::free(p); }

// The ABI numbers the passes build into programs (passes/kernel_abi.h), by
// name, for the runtime to check against its own; -1 for an unknown name.
int64_t ferrocl_llvm_abi_constant(const char *name)
{
    const struct {
        const char *name;
        uint64_t value;
    } constants[] = {
        {"local_size", ferrocl::CONTEXT_LOCAL_SIZE},
        {"frame", ferrocl::CONTEXT_FRAME},
        {"local_id", ferrocl::CONTEXT_LOCAL_ID},
        {"items_begin", ferrocl::CONTEXT_ITEMS_BEGIN},
        {"items_end", ferrocl::CONTEXT_ITEMS_END},
        {"max_work_group_size", ferrocl::MAX_WORK_GROUP_SIZE},
        {"frame_align", ferrocl::FRAME_ALIGN},
        {"frame_skew", ferrocl::FRAME_SKEW},
    };
    for (const auto &c : constants)
        if (std::strcmp(c.name, name) == 0)
            return int64_t(c.value);
    return -1;
}

// From now on, pipelines verify the module after each pass (`on`) or only
// after the whole pipeline.
void ferrocl_llvm_verify_each(int on) { verify_each.store(on != 0); }

// clang's driver with `argv` (argv[0]: the clang executable): its cc1 jobs
// run here; the other jobs (the linker) are not run but returned in
// `*external`, each argument NUL-terminated and each job ending with an
// empty argument, for the caller to run and capture. `dir` (may be null):
// the build's own directory, where all of its files are, which makes the
// jobs reusable (see driver_plan).
int ferrocl_llvm_clang(int argc, const char *const *argv, const char *passes, const char *dir,
                       char **log, char **external)
{
    std::string text, jobs;
    raw_string_ostream out(text);
    int status = 0;
    std::shared_ptr<const Plan> plan = driver_plan(argc, argv, dir, out, status);
    if (plan) {
        for (const std::vector<std::string> &job : *plan) {
            std::vector<const char *> args;
            for (size_t i = 1; i < job.size(); i++)
                args.push_back(job[i].c_str());
            if (!args.empty() && StringRef(args[0]) == "-cc1") {
                if (!run_cc1(job[0].c_str(), ArrayRef<const char *>(args).drop_front(), passes,
                             out)) {
                    status = 1;
                    break;
                }
            } else {
                for (const std::string &a : job) {
                    jobs.append(a);
                    jobs.push_back('\0');
                }
                jobs.push_back('\0');
            }
        }
    }
    out.flush();
    if (external)
        *external = static_cast<char *>(std::malloc(jobs.size() + 1));
    if (external && *external) {
        std::memcpy(*external, jobs.data(), jobs.size());
        (*external)[jobs.size()] = 0;
    }
    return finish(status, text, log);
}

// How many symbols the `n` object files `paths` refer to that none of them
// defines (a global definition), or -1 if one cannot be read: with none,
// the program links without the system libraries (driver.rs, back_end).
// Weak references count: a library could define them.
int ferrocl_llvm_undefined_symbols(int n, const char *const *paths)
{
    StringSet<> defined, undefined;
    for (int i = 0; i < n; i++) {
        auto file = object::ObjectFile::createObjectFile(paths[i]);
        if (!file) {
            consumeError(file.takeError());
            return -1;
        }
        for (const object::SymbolRef &symbol : file->getBinary()->symbols()) {
            Expected<uint32_t> flags = symbol.getFlags();
            Expected<StringRef> name = symbol.getName();
            if (!flags || !name) {
                consumeError(flags.takeError());
                consumeError(name.takeError());
                return -1;
            }
            if (name->empty())
                continue;
            if (*flags & object::SymbolRef::SF_Undefined)
                undefined.insert(*name);
            else if (*flags & object::SymbolRef::SF_Global)
                defined.insert(*name);
        }
    }
    int count = 0;
    for (const auto &name : undefined)
        count += !defined.contains(name.getKey());
    return count;
}

// The linker job `argv` (GNU ld's arguments, which lld takes too) run by
// lld's ELF linker inside the process. Returns -1, having done nothing,
// when ferrocl was built without lld or lld cannot run again (after a
// failure it could not recover from), for the caller to run the job as a
// tool instead.
int ferrocl_llvm_lld(int argc, const char *const *argv, char **log)
{
#ifdef FERROCL_HAVE_LLD
    // lld keeps its state in globals: one link at a time.
    static std::mutex one_at_a_time;
    static bool unusable = false;
    std::lock_guard<std::mutex> hold(one_at_a_time);
    if (unusable)
        return -1;
    std::string text;
    raw_string_ostream out(text);
    // lld ends a fatal error (an output it cannot write: say, the build's
    // directory removed by a /tmp cleaner meanwhile) by exiting the
    // process, unless crash recovery is enabled: then lldMain returns,
    // with canRunAgain false, and later links run the tool. Enabled only
    // while lld runs, since it replaces the handlers of the crash signals
    // (SIGSEGV and others), which are the application's; Disable puts
    // them back.
    CrashRecoveryContext::Enable();
    lld::Result r =
        lld::lldMain(ArrayRef<const char *>(argv, argc), out, out, {{lld::Gnu, &lld::elf::link}});
    CrashRecoveryContext::Disable();
    unusable = !r.canRunAgain;
    return finish(r.retCode == 0 ? 0 : 1, text, log);
#else
    (void)argc;
    (void)argv;
    (void)log;
    return -1;
#endif
}

// Whether `m` calls a collective function: a work-group one
// (work_group_reduce_add and the others) or a sub-group one (sub_group_*,
// cl_intel_subgroups' intel_sub_group_shuffle*).
bool calls_collectives(const Module &m)
{
    for (const Function &f : m) {
        StringRef id = ferrocl::mangled_identifier(f.getName());
        if (f.isDeclaration() && !f.use_empty() &&
            (id == "work_group_all" || id == "work_group_any" || id == "work_group_broadcast" ||
             id.starts_with("work_group_reduce_") || id.starts_with("work_group_scan_") ||
             id.starts_with("sub_group_") || id.starts_with("intel_sub_group_shuffle")))
            return true;
    }
    return false;
}

// `opt -S <input> -passes=<passes> -o <output>`; first, when `collectives`
// (bitcode, `size` bytes) is not null and the module calls a collective
// function, what it needs of that library linked in
// (`llvm-link --only-needed`), so that the passes see the functions' bodies;
// after the passes, when `description` is not null, the kernels'
// description (passes/kernel_description.h) there.
int ferrocl_llvm_opt(const char *input, const char *collectives, size_t size, const char *passes,
                     const char *output, char **description, char **log)
{
    std::string text;
    raw_string_ostream out(text);
    LLVMContext ctx;
    auto m = parse(input, ctx, out);
    if (!m)
        return finish(1, text, log);
    if (collectives && calls_collectives(*m)) {
        SMDiagnostic err;
        auto bitcode = MemoryBuffer::getMemBuffer(StringRef(collectives, size), "collective.bc",
                                                  false);
        auto lib = getLazyIRModule(std::move(bitcode), err, ctx);
        if (!lib) {
            err.print("ferrocl", out);
            return finish(1, text, log);
        }
        if (Linker::linkModules(*m, std::move(lib), Linker::Flags::LinkOnlyNeeded))
            return finish(1, text, log);
    }
    if (!run_passes(*m, passes, out))
        return finish(1, text, log);
    if (description)
        *description = to_c(ferrocl::describe_kernels(*m));
    return finish(write(*m, output, Format::Text, out) ? 0 : 1, text, log);
}

// `llvm-link -S <inputs> -o <output>`: the `n` inputs linked into one.
int ferrocl_llvm_link(int n, const char *const *inputs, const char *output, char **log)
{
    std::string text;
    raw_string_ostream out(text);
    LLVMContext ctx;
    auto composite = std::make_unique<Module>("llvm-link", ctx);
    Linker linker(*composite);
    for (int i = 0; i < n; i++) {
        auto m = parse(inputs[i], ctx, out);
        if (!m)
            return finish(1, text, log);
        // A linkonce definition is linked only when something linked
        // before refers to it, so one that only a later input calls (a
        // SPIR-V module's LinkOnceODR function, cl_khr_spirv_linkonce_odr)
        // was dropped. Weak keeps it, and still one copy in the end.
        for (GlobalValue &g : m->global_values()) {
            if (g.hasLinkOnceODRLinkage())
                g.setLinkage(GlobalValue::WeakODRLinkage);
            else if (g.hasLinkOnceAnyLinkage())
                g.setLinkage(GlobalValue::WeakAnyLinkage);
        }
        if (linker.linkInModule(std::move(m)))
            return finish(1, text, log);
    }
    if (verifyModule(*composite, &out))
        return finish(1, text, log);
    return finish(write(*composite, output, Format::Text, out) ? 0 : 1, text, log);
}

// The builtins library: `n` bitcode files (`sizes[i]` bytes at `data[i]`,
// which must outlive it) and `index`, `name<TAB>file number` lines saying
// which file defines each name. Nothing is read yet.
void *ferrocl_llvm_library_open(size_t n, const char *const *data, const size_t *sizes,
                                const char *index, size_t index_size, char **log)
{
    auto lib = std::make_unique<Library>();
    for (size_t i = 0; i < n; i++)
        lib->bitcode.emplace_back(data[i], sizes[i]);
    lib->files.resize(n);
    SmallVector<StringRef, 0> lines;
    StringRef(index, index_size).split(lines, '\n', -1, false);
    for (StringRef line : lines) {
        auto [name, number] = line.split('\t');
        unsigned file;
        if (number.getAsInteger(10, file) || file >= n) {
            finish(1, "bad builtins index line: " + line.str(), log);
            return nullptr;
        }
        lib->defined_in.try_emplace(name, file);
    }
    // The work-item functions' file (the first), which every kernel needs,
    // read now (pruning reads it otherwise).
    std::string text;
    raw_string_ostream out(text);
    if (n > 0)
        lib->file(0, out);
    finish(0, text, log);
    return lib.release();
}

// The part of the library that the module in `input` needs: the
// definitions it references, transitively, written as bitcode to `output`.
// Linking that instead of the whole library (as clang's
// -mlink-builtin-bitcode does, only-needed) gives the same module without
// reading every function of the library. Not to be called for one library
// from two threads at once. Returns 2 if the module is not valid IR.
// *unresolved: how many of the names the module and those definitions
// refer to the library does not define (intrinsics aside), which only the
// link can find (libm's, or none: a call to an undefined function).
int ferrocl_llvm_library_prune(void *library, const char *input, const char *output,
                               size_t *unresolved, char **log)
{
    *unresolved = 0;
    std::string text;
    raw_string_ostream out(text);
    Library &lib = *static_cast<Library *>(library);
    std::vector<std::string> wanted;
    {
        LLVMContext ctx;
        auto m = parse(input, ctx, out);
        if (!m)
            return finish(2, text, log);
        for (GlobalValue &g : m->global_values())
            if (g.isDeclaration() && g.hasName())
                wanted.push_back(g.getName().str());
    }
    // Per file: what it must define, and what its definitions refer to. A
    // file's definitions may refer to another's (a conversion to a math
    // function): those names are wanted next, until none is new.
    size_t n = lib.files.size();
    std::vector<GlobalSet> needed(n), referenced(n);
    std::vector<bool> used(n);
    StringSet<> asked;
    while (!wanted.empty()) {
        std::vector<std::vector<GlobalValue *>> roots(n);
        for (const std::string &name : wanted) {
            if (!asked.insert(name).second)
                continue;
            auto it = lib.defined_in.find(name);
            if (it == lib.defined_in.end()) {
                if (!StringRef(name).starts_with("llvm."))
                    ++*unresolved;
                continue;
            }
            unsigned i = it->second;
            Module *file = lib.file(i, out);
            if (!file)
                return finish(1, text, log);
            roots[i].push_back(file->getNamedValue(name));
            // A file's appending variables (llvm.used) come with it.
            if (!used[i]) {
                used[i] = true;
                for (GlobalVariable &g : file->globals())
                    if (g.hasAppendingLinkage())
                        roots[i].push_back(&g);
            }
        }
        wanted.clear();
        for (size_t i = 0; i < n; i++) {
            if (roots[i].empty())
                continue;
            Module &file = *lib.files[i];
            if (Error e = needed_closure(file, roots[i], needed[i], referenced[i])) {
                out << toString(std::move(e)) << "\n";
                return finish(1, text, log);
            }
            for (const GlobalValue *g : referenced[i])
                if (g->isDeclaration() && g->hasName() && !asked.contains(g->getName()))
                    wanted.push_back(g->getName().str());
        }
    }
    std::unique_ptr<Module> pruned;
    for (size_t i = 0; i < n; i++) {
        if (needed[i].empty())
            continue;
        Module &file = *lib.files[i];
        auto part = clone_needed(file, needed[i], referenced[i]);
        if (!part) {
            ValueToValueMapTy map;
            part = CloneModule(file, map,
                               [&](const GlobalValue *g) { return needed[i].count(g) != 0; });
            // The declarations left for everything else are unused.
            drop_unused_declarations(*part);
        }
        if (!pruned)
            pruned = std::move(part);
        else if (Linker::linkModules(*pruned, std::move(part)))
            return finish(1, text, log);
    }
    if (!pruned) {
        // Nothing needed: an empty module for the same target.
        Module *any = lib.file(0, out);
        if (!any)
            return finish(1, text, log);
        pruned = std::make_unique<Module>("builtins", lib.ctx);
        pruned->setDataLayout(any->getDataLayout());
        pruned->setTargetTriple(any->getTargetTriple());
    }
    if (verifyModule(*pruned, &out))
        return finish(1, text, log);
    return finish(write(*pruned, output, Format::Bitcode, out) ? 0 : 1, text, log);
}

// The module in `input` as at most `n` modules that together define what
// it defines, written as bitcode to outputs[0..*parts), for compiling on
// several cores at once and linking the objects. Each entry point (a
// definition that other objects may see) goes to one part, the largest
// first to the part with the least code; a part gets a copy of every
// internal function and unnamed constant its entry points reach, so
// that it optimizes as the whole module would. An internal variable
// that several parts reach becomes one hidden definition in the first of
// them. *parts is 0 (nothing written) when the module has fewer than two
// entry points or what this does not handle (aliases, ifuncs, comdats,
// appending variables such as llvm.used).
// The kernel whose entry point `g` is (its work-group or work-item entry),
// or "" for the program's other entry points.
static StringRef kernel_of(const GlobalValue &g)
{
    StringRef name = g.getName();
    for (StringRef prefix : {"__ferrocl_wg_", "__ferrocl_wi_"})
        if (name.starts_with(prefix))
            return name.drop_front(prefix.size());
    return "";
}

// `ferrocl_llvm_split`, or with `by_kernel` `ferrocl_llvm_split_kernels`.
static int split(const char *input, int n, const char *const *outputs, int *parts, char **log,
                 bool by_kernel)
{
    std::string text;
    raw_string_ostream out(text);
    *parts = 0;
    LLVMContext ctx;
    auto m = parse(input, ctx, out);
    if (!m)
        return finish(1, text, log);
    bool appending = false;
    for (const GlobalVariable &v : m->globals())
        appending |= v.hasAppendingLinkage();
    if (n < 2 || appending || has_aliases_ifuncs_or_comdats(*m))
        return finish(0, text, log);
    // Entry points that refer to each other (a work-group entry and the
    // body it calls, a kernel and the block kernels it enqueues) stay in
    // one part: code entered from one part then never runs in another,
    // whose copies of the builtins' thread-local state (the work-group
    // context) the entry did not set.
    struct Unit {
        std::vector<GlobalValue *> entries;
        GlobalSet reached;
        size_t size = 0;
    };
    DenseMap<const GlobalValue *, int> unit_of;
    std::vector<Unit> units;
    for (GlobalValue &g : m->global_values()) {
        if (g.isDeclaration() || duplicable(g) || g.hasLocalLinkage())
            continue;
        int u = units.size();
        unit_of[&g] = u;
        units.push_back(Unit{{&g}, reach(&g), 0});
    }
    // A kernel's entries together, and the program's other entry points
    // together, so that a part's code changes only with its kernel's.
    if (by_kernel) {
        StringMap<int> unit_of_kernel;
        for (size_t u = 0; u < units.size(); u++) {
            auto [first, added] = unit_of_kernel.try_emplace(kernel_of(*units[u].entries[0]), u);
            if (added)
                continue;
            Unit &into = units[first->second];
            for (GlobalValue *e : units[u].entries)
                unit_of[e] = first->second;
            into.entries.insert(into.entries.end(), units[u].entries.begin(),
                                units[u].entries.end());
            into.reached.insert(units[u].reached.begin(), units[u].reached.end());
            units[u] = Unit{};
        }
    }
    // Merging: each unit's entries into the unit of any entry it reaches
    // that belongs to another, until none does.
    for (bool merged = true; merged;) {
        merged = false;
        for (size_t u = 0; u < units.size(); u++) {
            for (const GlobalValue *r : std::vector<const GlobalValue *>(units[u].reached.begin(),
                                                                        units[u].reached.end())) {
                auto other = unit_of.find(r);
                // A variable (program-scope variables) is one definition
                // that every part can see.
                if (!isa<Function>(r) || other == unit_of.end() || size_t(other->second) == u)
                    continue;
                Unit &from = units[other->second];
                for (GlobalValue *e : from.entries)
                    unit_of[e] = u;
                units[u].entries.insert(units[u].entries.end(), from.entries.begin(),
                                        from.entries.end());
                units[u].reached.insert(from.reached.begin(), from.reached.end());
                from = Unit{};
                merged = true;
            }
        }
    }
    units.erase(std::remove_if(units.begin(), units.end(),
                               [](const Unit &u) { return u.entries.empty(); }),
                units.end());
    if (units.size() < 2)
        return finish(0, text, log);
    for (Unit &u : units)
        for (const GlobalValue *r : u.reached)
            if (auto *f = dyn_cast<Function>(r))
                u.size += f->getInstructionCount();
    // At most 64 parts: reached_by below is a 64-bit mask.
    int count = std::min<int>(std::min(n, 64), units.size());
    std::stable_sort(units.begin(), units.end(),
                     [](const Unit &a, const Unit &b) { return a.size > b.size; });
    std::vector<size_t> load(count, 0);
    // The parts that reach each value; the part that defines each value
    // other parts see.
    DenseMap<const GlobalValue *, uint64_t> reached_by;
    DenseMap<const GlobalValue *, int> owner;
    for (const Unit &u : units) {
        int p = std::min_element(load.begin(), load.end()) - load.begin();
        load[p] += u.size;
        for (GlobalValue *e : u.entries)
            owner[e] = p;
        for (const GlobalValue *r : u.reached)
            reached_by[r] |= uint64_t(1) << p;
    }
    // Internal variables that several parts use: one hidden definition.
    unsigned renamed = 0;
    for (GlobalVariable &v : m->globals()) {
        uint64_t by = reached_by.lookup(&v);
        if (v.isDeclaration() || !v.hasLocalLinkage() || duplicable(v) || !by)
            continue;
        if (by & (by - 1)) {
            if (!v.hasName())
                v.setName("__ferrocl_split." + Twine(renamed++));
            v.setLinkage(GlobalValue::ExternalLinkage);
            v.setVisibility(GlobalValue::HiddenVisibility);
            v.setDSOLocal(true);
        }
        owner[&v] = countr_zero(by);
    }
    for (int p = 0; p < count; p++) {
        uint64_t bit = uint64_t(1) << p;
        ValueToValueMapTy map;
        auto part = CloneModule(*m, map, [&](const GlobalValue *g) {
            if (duplicable(*g))
                return (reached_by.lookup(g) & bit) != 0;
            auto o = owner.find(g);
            return o != owner.end() && o->second == p;
        });
        for (GlobalValue &g : part->global_values())
            // Defined by another object, which may be preempted unless
            // hidden.
            if (g.isDeclaration() && !g.hasHiddenVisibility())
                g.setDSOLocal(false);
        drop_unused_declarations(*part);
        // Named for no build's directory: the same kernel gives the same
        // bitcode, which is the key of its object in the cache.
        if (by_kernel) {
            part->setModuleIdentifier("kernels");
            part->setSourceFileName("kernels");
        }
        if (verifyModule(*part, &out) || !write(*part, outputs[p], Format::Bitcode, out))
            return finish(1, text, log);
    }
    *parts = count;
    return finish(0, text, log);
}

int ferrocl_llvm_split(const char *input, int n, const char *const *outputs, int *parts,
                       char **log)
{
    return split(input, n, outputs, parts, log, false);
}

// `ferrocl_llvm_split` with one part per kernel (its entries and what they
// reach) and one for the program's other entry points, at most `n`: the
// back end's unit of reuse (driver.rs, object_cache.rs).
int ferrocl_llvm_split_kernels(const char *input, int n, const char *const *outputs, int *parts,
                               char **log)
{
    return split(input, n, outputs, parts, log, true);
}

} // extern "C"
