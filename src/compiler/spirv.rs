//! SPIR-V modules (clCreateProgramWithIL): the module's structure checked
//! and its specialization constants found and set here, on its words; the
//! translation to LLVM IR is the Khronos SPIRV-LLVM-Translator's
//! (`llvm-spirv-15`, driver.rs), whose LLVM 15 bitcode LLVM 19 reads,
//! after spirv_lowering.rs rewrote the newer instructions it cannot read.
//!
//! Only what the runtime must know before a build is read here: that the
//! bytes are a module at all (CL_INVALID_VALUE at creation otherwise), its
//! version, and its specialization constants with their sizes
//! (clSetProgramSpecializationConstant's error codes). Everything else is
//! the translator's to read, and its complaints are the build log.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const MAGIC: u32 = 0x0723_0203;
pub(crate) const HEADER_WORDS: usize = 5;

const OP_DECORATE: u32 = 71;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_SPEC_CONSTANT_TRUE: u32 = 48;
const OP_SPEC_CONSTANT_FALSE: u32 = 49;
const OP_SPEC_CONSTANT: u32 = 50;
const DECORATION_SPEC_ID: u32 = 1;

/// The SPIR-V versions the device reads (CL_DEVICE_IL_VERSION), as
/// (major, minor). The translator reads up to 1.4; a 1.5 module is handed
/// to it as 1.4, since SPIR-V 1.5 added nothing the OpenCL environment
/// allows (its additions are Vulkan's), and anything it does not know
/// fails the build with its message.
pub const VERSIONS: &[(u32, u32)] = &[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5)];
/// The newest version the translator itself accepts.
const TRANSLATOR_VERSION: (u32, u32) = (1, 4);

/// A specialization constant of a module: its SpecId and its size in
/// bytes (1 for a boolean, as clSetProgramSpecializationConstant takes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    pub id: u32,
    pub size: usize,
    /// The word of its instruction's opcode.
    at: usize,
    kind: SpecKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpecKind {
    Bool,
    /// An integer (signed or not) or a float of `bits` bits.
    Number {
        bits: u32,
        signed: bool,
    },
}

/// A SPIR-V module whose structure was checked: native-order words.
#[derive(Clone, Debug)]
pub struct Module {
    words: Vec<u32>,
    pub version: (u32, u32),
    pub spec_constants: Vec<SpecConstant>,
}

impl Module {
    /// Reads the bytes of a module, in either byte order: the header, and
    /// every instruction's word count fitting in the module. The reason if
    /// they are not a module.
    pub fn parse(bytes: &[u8]) -> Result<Module, String> {
        if !bytes.len().is_multiple_of(4) {
            return Err(format!(
                "a SPIR-V module is whole 32-bit words; {} bytes are not",
                bytes.len()
            ));
        }
        let mut words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if words.len() < HEADER_WORDS {
            return Err("shorter than a SPIR-V header (5 words)".into());
        }
        if words[0] == MAGIC.swap_bytes() {
            for w in &mut words {
                *w = w.swap_bytes();
            }
        } else if words[0] != MAGIC {
            return Err(format!(
                "not SPIR-V: magic number {:#010x}, not {MAGIC:#010x}",
                words[0]
            ));
        }
        let v = words[1];
        if v & 0xff00_00ff != 0 {
            return Err(format!("not a SPIR-V version number: {v:#010x}"));
        }
        let version = (v >> 16, (v >> 8) & 0xff);
        if words[3] == 0 {
            return Err("the module's id bound is 0".into());
        }
        // Walk the instructions: each fits, and the ids needed for the
        // specialization constants are collected on the way.
        let mut spec_ids = BTreeMap::new();
        let mut types = BTreeMap::new();
        let mut constants = Vec::new();
        let mut at = HEADER_WORDS;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let opcode = words[at] & 0xffff;
            if count == 0 || at + count > words.len() {
                return Err(format!(
                    "instruction at word {at} (opcode {opcode}) has a word count of {count}, \
                     past the module's end"
                ));
            }
            let operands = &words[at + 1..at + count];
            match (opcode, operands) {
                (OP_DECORATE, [target, DECORATION_SPEC_ID, id, ..]) => {
                    spec_ids.insert(*target, *id);
                }
                (OP_TYPE_BOOL, [result, ..]) => {
                    types.insert(*result, SpecKind::Bool);
                }
                (OP_TYPE_INT, [result, bits, signed, ..]) => {
                    let signed = *signed != 0;
                    types.insert(
                        *result,
                        SpecKind::Number {
                            bits: *bits,
                            signed,
                        },
                    );
                }
                (OP_TYPE_FLOAT, [result, bits, ..]) => {
                    let kind = SpecKind::Number {
                        bits: *bits,
                        signed: false,
                    };
                    types.insert(*result, kind);
                }
                (
                    OP_SPEC_CONSTANT_TRUE | OP_SPEC_CONSTANT_FALSE | OP_SPEC_CONSTANT,
                    [ty, result, ..],
                ) => {
                    constants.push((at, *ty, *result));
                }
                _ => {}
            }
            at += count;
        }
        let mut spec_constants = Vec::new();
        for (at, ty, result) in constants {
            let Some(&id) = spec_ids.get(&result) else {
                continue;
            };
            let kind = match types.get(&ty) {
                Some(
                    &k @ SpecKind::Number {
                        bits: 8 | 16 | 32 | 64,
                        ..
                    },
                ) => k,
                Some(&SpecKind::Bool) => SpecKind::Bool,
                _ => return Err(format!("specialization constant {id} has no scalar type")),
            };
            let size = match kind {
                SpecKind::Bool => 1,
                SpecKind::Number { bits, .. } => bits as usize / 8,
            };
            let literal_words = (words[at] >> 16) as usize - 3;
            if matches!(kind, SpecKind::Number { .. }) && literal_words != size.div_ceil(4) {
                return Err(format!(
                    "specialization constant {id}: {literal_words} literal words for {size} bytes"
                ));
            }
            spec_constants.push(SpecConstant { id, size, at, kind });
        }
        Ok(Module {
            words,
            version,
            spec_constants,
        })
    }

    /// The specialization constant with SpecId `id`.
    pub fn spec_constant(&self, id: u32) -> Option<&SpecConstant> {
        self.spec_constants.iter().find(|c| c.id == id)
    }

    /// The module, with the values `values` (SpecId to bytes, sizes as
    /// `spec_constant` gives them) as its specialization constants'
    /// defaults, as the translator reads it: little-endian, a 1.5 module
    /// declared 1.4. An error for a version the device does not read.
    pub fn for_translator(&self, values: &BTreeMap<u32, Vec<u8>>) -> Result<Vec<u8>, String> {
        let (major, minor) = self.version;
        if !VERSIONS.contains(&self.version) {
            return Err(format!(
                "SPIR-V {major}.{minor} is not read here (CL_DEVICE_IL_VERSION: 1.0 to 1.5)"
            ));
        }
        let mut words = self.words.clone();
        if self.version > TRANSLATOR_VERSION {
            words[1] = (TRANSLATOR_VERSION.0 << 16) | (TRANSLATOR_VERSION.1 << 8);
        }
        for c in &self.spec_constants {
            let Some(value) = values.get(&c.id) else {
                continue;
            };
            match c.kind {
                SpecKind::Bool => {
                    let opcode = match value.iter().any(|&b| b != 0) {
                        true => OP_SPEC_CONSTANT_TRUE,
                        false => OP_SPEC_CONSTANT_FALSE,
                    };
                    words[c.at] = (words[c.at] & 0xffff_0000) | opcode;
                }
                SpecKind::Number { bits, signed } => {
                    let mut bytes = [0u8; 8];
                    bytes[..c.size].copy_from_slice(&value[..c.size]);
                    let mut v = u64::from_le_bytes(bytes);
                    // "If the width is less than 32 bits, the high-order
                    // bits ... must be sign-extended for signed integer
                    // types", and 0 otherwise.
                    if signed && bits < 32 {
                        let shift = 64 - bits;
                        v = (((v << shift) as i64) >> shift) as u64 & 0xffff_ffff;
                    }
                    words[c.at + 3] = v as u32;
                    if bits == 64 {
                        words[c.at + 4] = (v >> 32) as u32;
                    }
                }
            }
        }
        let words = super::spirv_lowering::lower(words);
        Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }
}

/// The translator (SPIR-V to LLVM IR): FERROCL_LLVM_SPIRV, else
/// llvm-spirv-15 on PATH, else LLVM 15's own directory. Without it the
/// device reads no IL and says so (CL_DEVICE_IL_VERSION empty).
pub fn translator() -> Option<&'static Path> {
    static TRANSLATOR: OnceLock<Option<PathBuf>> = OnceLock::new();
    TRANSLATOR
        .get_or_init(|| {
            let fallback = "/usr/lib/llvm-15/bin/llvm-spirv";
            super::driver::find_tool("FERROCL_LLVM_SPIRV", "llvm-spirv-15", fallback)
        })
        .as_deref()
}

/// Whether the device reads SPIR-V (the translator is there and the
/// in-process compiler, which finishes the translator's module, too).
pub fn il_supported() -> bool {
    translator().is_some() && super::inprocess::llvm().is_some()
}

/// What cl_khr_spirv_queries reports the device reads: the extended
/// instruction sets, SPIR-V extensions and capabilities below, each read by
/// the translator into calls the builtins library defines, and used by a
/// module of cts-subset/spirv (extensions.spvasm, kernels.cl, spec.spvasm).
/// The image capabilities only with images (api/device.rs).
pub mod accepted {
    use std::ffi::CStr;

    pub const EXTENDED_INSTRUCTION_SETS: &[&CStr] = &[c"OpenCL.std"];

    pub const EXTENSIONS: &[&CStr] = &[
        c"SPV_KHR_expect_assume",
        c"SPV_KHR_bit_instructions",
        c"SPV_KHR_integer_dot_product",
        c"SPV_KHR_linkonce_odr",
        c"SPV_KHR_no_integer_wrap_decoration",
        c"SPV_KHR_subgroup_rotate",
        c"SPV_KHR_uniform_group_instructions",
        c"SPV_EXT_shader_atomic_float_add",
        c"SPV_EXT_shader_atomic_float_min_max",
    ];

    /// SPIR-V's capability numbers (the spec's Capability table).
    pub const CAPABILITIES: &[u32] = &[
        4,    // Addresses
        5,    // Linkage
        6,    // Kernel
        7,    // Vector16
        8,    // Float16Buffer
        9,    // Float16
        10,   // Float64
        11,   // Int64
        12,   // Int64Atomics
        17,   // Pipes
        18,   // Groups
        19,   // DeviceEnqueue
        22,   // Int16
        38,   // GenericPointer
        39,   // Int8
        58,   // SubgroupDispatch
        65,   // GroupNonUniformShuffle
        66,   // GroupNonUniformShuffleRelative
        67,   // GroupNonUniformClustered
        5612, // AtomicFloat32MinMaxEXT
        5613, // AtomicFloat64MinMaxEXT
        5629, // ExpectAssumeKHR
        6017, // DotProductInput4x8Bit
        6018, // DotProductInput4x8BitPacked
        6019, // DotProduct
        6025, // BitInstructions
        6026, // GroupNonUniformRotateKHR
        6033, // AtomicFloat32AddEXT
        6034, // AtomicFloat64AddEXT
        6400, // GroupUniformArithmeticKHR
    ];

    /// With images: ImageBasic, LiteralSampler, Sampled1D, Image1D,
    /// SampledBuffer, ImageBuffer.
    pub const IMAGE_CAPABILITIES: &[u32] = &[13, 20, 43, 44, 46, 47];

    /// With read-write images.
    pub const IMAGE_READ_WRITE: u32 = 14;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of one boolean, one signed 8-bit, one 32-bit float and one
    /// 64-bit integer specialization constant (SpecIds 1 to 4), and one
    /// plain constant.
    fn module() -> Vec<u32> {
        let op = |opcode: u32, operands: &[u32]| {
            let mut w = vec![((operands.len() as u32 + 1) << 16) | opcode];
            w.extend_from_slice(operands);
            w
        };
        let mut w = vec![MAGIC, 0x0001_0500, 0, 20, 0];
        w.extend(op(OP_DECORATE, &[5, DECORATION_SPEC_ID, 1]));
        w.extend(op(OP_DECORATE, &[6, DECORATION_SPEC_ID, 2]));
        w.extend(op(OP_DECORATE, &[7, DECORATION_SPEC_ID, 3]));
        w.extend(op(OP_DECORATE, &[8, DECORATION_SPEC_ID, 4]));
        w.extend(op(OP_TYPE_BOOL, &[1]));
        w.extend(op(OP_TYPE_INT, &[2, 8, 1]));
        w.extend(op(OP_TYPE_FLOAT, &[3, 32]));
        w.extend(op(OP_TYPE_INT, &[4, 64, 0]));
        w.extend(op(OP_SPEC_CONSTANT_FALSE, &[1, 5]));
        w.extend(op(OP_SPEC_CONSTANT, &[2, 6, 7]));
        w.extend(op(OP_SPEC_CONSTANT, &[3, 7, 0]));
        w.extend(op(OP_SPEC_CONSTANT, &[4, 8, 1, 0]));
        w.extend(op(43, &[2, 9, 3])); // OpConstant: not specializable
        w
    }

    fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn finds_the_specialization_constants_and_their_sizes() {
        let m = Module::parse(&bytes(&module())).unwrap();
        assert_eq!(m.version, (1, 5));
        let sizes: Vec<_> = m.spec_constants.iter().map(|c| (c.id, c.size)).collect();
        assert_eq!(sizes, [(1, 1), (2, 1), (3, 4), (4, 8)]);
        assert!(m.spec_constant(9).is_none());
    }

    #[test]
    fn sets_values_and_declares_1_5_as_1_4() {
        let m = Module::parse(&bytes(&module())).unwrap();
        let values = BTreeMap::from([
            (1, vec![1]),
            (2, vec![0xfe]),
            (3, 2.5f32.to_le_bytes().to_vec()),
            (4, 0x1_0000_0002u64.to_le_bytes().to_vec()),
        ]);
        let out = Module::parse(&m.for_translator(&values).unwrap()).unwrap();
        assert_eq!(out.words[1], 0x0001_0400);
        let at = |id| out.spec_constant(id).unwrap().at;
        assert_eq!(out.words[at(1)] & 0xffff, OP_SPEC_CONSTANT_TRUE);
        // -2 as a signed 8-bit literal: sign-extended to 32 bits.
        assert_eq!(out.words[at(2) + 3], 0xffff_fffe);
        assert_eq!(out.words[at(3) + 3], 2.5f32.to_bits());
        assert_eq!(out.words[at(4) + 3..at(4) + 5], [2, 1]);
    }

    #[test]
    fn reads_big_endian_modules() {
        let big: Vec<u8> = module().iter().flat_map(|w| w.to_be_bytes()).collect();
        let m = Module::parse(&big).unwrap();
        assert_eq!(m.spec_constants.len(), 4);
        let little = m.for_translator(&BTreeMap::new()).unwrap();
        assert_eq!(little[..4], MAGIC.to_le_bytes());
    }

    #[test]
    fn refuses_what_is_not_a_module() {
        let good = bytes(&module());
        assert!(Module::parse(&good[..good.len() - 2]).is_err());
        assert!(Module::parse(&good[..good.len() - 4]).is_err()); // cut instruction
        assert!(Module::parse(&good[..16]).is_err());
        assert!(Module::parse(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\0\0\0\0").is_err());
        let mut zero = module();
        zero[HEADER_WORDS] &= 0xffff; // a word count of 0
        assert!(Module::parse(&bytes(&zero)).is_err());
        let mut newer = module();
        newer[1] = 0x0001_0600;
        let m = Module::parse(&bytes(&newer)).unwrap();
        assert!(m.for_translator(&BTreeMap::new()).is_err());
    }
}
