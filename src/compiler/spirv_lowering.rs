//! SPIR-V 1.4 and 1.5 instructions the translator (llvm-spirv-15) cannot
//! read, rewritten into older ones with the same meaning before it reads
//! the module: it asserts "Not implemented" on OpPtrEqual, OpPtrNotEqual,
//! OpPtrDiff, OpCopyLogical and OpDecorateString, fails on OpCopyMemory
//! without a size, makes invalid LLVM IR of SPIR-V 1.5's OpBitcast
//! between a pointer and an integer or vector, and crashes on an
//! OpCompositeConstruct of a structure or vector whose members are not
//! constants (it makes a constant of it), on OpConstantNull of a scalar type, and
//! on OpVectorShuffle of two vectors of different lengths; nor does it
//! know SPV_KHR_expect_assume's OpExpectKHR and OpAssumeTrueKHR, hints
//! that change no result.
//!
//! What cannot be rewritten (a type this module cannot size or find) is
//! left as it is, for the translator to refuse with its message.

use std::collections::HashMap;

const OP_CAPABILITY: u32 = 17;
const OP_MEMORY_MODEL: u32 = 14;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_TYPE_VECTOR: u32 = 23;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_TYPE_POINTER: u32 = 32;
const OP_CONSTANT_FALSE: u32 = 42;
const OP_CONSTANT: u32 = 43;
const OP_CONSTANT_NULL: u32 = 46;
const OP_FUNCTION: u32 = 54;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_COPY_MEMORY: u32 = 63;
const OP_UNDEF: u32 = 1;
const OP_COMPOSITE_CONSTRUCT: u32 = 80;
const OP_VECTOR_SHUFFLE: u32 = 79;
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_COMPOSITE_INSERT: u32 = 82;
const OP_COPY_OBJECT: u32 = 83;
const OP_S_CONVERT: u32 = 114;
const OP_CONVERT_PTR_TO_U: u32 = 117;
const OP_CONVERT_U_TO_PTR: u32 = 120;
const OP_BITCAST: u32 = 124;
const OP_I_SUB: u32 = 130;
const OP_S_DIV: u32 = 135;
const OP_I_EQUAL: u32 = 170;
const OP_I_NOT_EQUAL: u32 = 171;
const OP_COPY_LOGICAL: u32 = 400;
const OP_PTR_EQUAL: u32 = 401;
const OP_PTR_NOT_EQUAL: u32 = 402;
const OP_PTR_DIFF: u32 = 403;
const OP_ASSUME_TRUE_KHR: u32 = 5630;
const OP_EXPECT_KHR: u32 = 5631;
const OP_DECORATE_STRING: u32 = 5632;
const OP_MEMBER_DECORATE_STRING: u32 = 5633;
const CAPABILITY_INT64: u32 = 11;

/// Whether the first two operands of `opcode` are a result type and a
/// result id, for the values the rewrites ask the type of: pointers
/// (undef, null, parameters, calls, variables, loads, access chains,
/// copies, pointer conversions, selects, phis), constants, extended
/// instructions, composites, conversions, arithmetic, OpExpectKHR.
fn records_result_type(opcode: u32) -> bool {
    matches!(
        opcode,
        1 | 12 | 41..=44 | 46 | 55 | 57 | 59 | 61 | 65..=67 | 70 | 79..=83 | 109..=124
            | 126..=141 | 169 | 245 | OP_EXPECT_KHR
    )
}

/// Is `opcode` one of those the translator cannot read?
fn needs_lowering(opcode: u32) -> bool {
    matches!(
        opcode,
        OP_COPY_MEMORY
            | OP_EXPECT_KHR
            | OP_ASSUME_TRUE_KHR
            | OP_VECTOR_SHUFFLE
            | OP_CONSTANT_NULL
            | OP_COMPOSITE_CONSTRUCT
            | OP_COPY_LOGICAL
            | OP_PTR_EQUAL
            | OP_PTR_NOT_EQUAL
            | OP_PTR_DIFF
            | OP_DECORATE_STRING
            | OP_MEMBER_DECORATE_STRING
            | OP_BITCAST
    )
}

fn instruction(opcode: u32, operands: &[u32]) -> Vec<u32> {
    let mut w = Vec::with_capacity(operands.len() + 1);
    w.push(((operands.len() as u32 + 1) << 16) | opcode);
    w.extend_from_slice(operands);
    w
}

/// A type the rewrites need to know.
#[derive(Clone, Debug)]
enum Type {
    Bool,
    Int(u32),
    Float(u32),
    Vector(u32, u32),
    Array(u32, u32),
    Struct(Vec<u32>),
    /// The pointee's type.
    Pointer(u32),
}

struct Lowering {
    types: HashMap<u32, Type>,
    /// The result type of each value that may be a pointer.
    value_types: HashMap<u32, u32>,
    /// 32-bit integer constants' values (array lengths).
    constants: HashMap<u32, u32>,
    bound: u32,
    pointer_bits: u32,
    /// Declarations to add before the first function: (type or constant
    /// instruction); and the ids made for them.
    added_globals: Vec<Vec<u32>>,
    int_types: HashMap<u32, u32>,
    int_constants: HashMap<(u32, u64), u32>,
    needs_int64: bool,
}

impl Lowering {
    fn new_id(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    /// The id of an unsigned integer type of `bits` bits, declared if the
    /// module has none.
    fn int_type(&mut self, bits: u32) -> u32 {
        if let Some(&id) = self.int_types.get(&bits) {
            return id;
        }
        let id = self.new_id();
        self.added_globals
            .push(instruction(OP_TYPE_INT, &[id, bits, 0]));
        self.types.insert(id, Type::Int(bits));
        self.int_types.insert(bits, id);
        self.needs_int64 |= bits == 64;
        id
    }

    fn int_constant(&mut self, bits: u32, value: u64) -> u32 {
        let ty = self.int_type(bits);
        if let Some(&id) = self.int_constants.get(&(bits, value)) {
            return id;
        }
        let id = self.new_id();
        let mut operands = vec![ty, id, value as u32];
        if bits == 64 {
            operands.push((value >> 32) as u32);
        }
        self.added_globals.push(instruction(OP_CONSTANT, &operands));
        self.int_constants.insert((bits, value), id);
        id
    }

    /// The size in bytes of type `id`, as OpenCL lays it out.
    fn size_and_align(&self, id: u32) -> Option<(u64, u64)> {
        Some(match self.types.get(&id)? {
            Type::Bool => (1, 1),
            Type::Int(bits) | Type::Float(bits) => (*bits as u64 / 8, *bits as u64 / 8),
            Type::Pointer(_) => (self.pointer_bits as u64 / 8, self.pointer_bits as u64 / 8),
            Type::Vector(elem, n) => {
                let (size, _) = self.size_and_align(*elem)?;
                let lanes = if *n == 3 { 4 } else { *n as u64 };
                (size * lanes, size * lanes)
            }
            Type::Array(elem, length) => {
                let (size, align) = self.size_and_align(*elem)?;
                (size * *self.constants.get(length)? as u64, align)
            }
            Type::Struct(members) => {
                let (mut size, mut align) = (0u64, 1u64);
                for &m in members {
                    let (s, a) = self.size_and_align(m)?;
                    size = size.next_multiple_of(a) + s;
                    align = align.max(a);
                }
                (size.next_multiple_of(align), align)
            }
        })
    }

    fn is_pointer_value(&self, id: u32) -> bool {
        let ty = self.value_types.get(&id);
        ty.is_some_and(|t| matches!(self.types.get(t), Some(Type::Pointer(_))))
    }

    /// `ConvertPtrToU` of `pointer` to a pointer-sized integer: (its
    /// instruction, the integer's id).
    fn pointer_as_int(&mut self, pointer: u32) -> (Vec<u32>, u32) {
        let ty = self.int_type(self.pointer_bits);
        let id = self.new_id();
        (instruction(OP_CONVERT_PTR_TO_U, &[ty, id, pointer]), id)
    }

    /// The instructions that replace `words`, or None to keep it.
    fn lower(&mut self, words: &[u32]) -> Option<Vec<Vec<u32>>> {
        let opcode = words[0] & 0xffff;
        let ops = &words[1..];
        match opcode {
            // Annotations (UserSemantic and the like): nothing to run.
            OP_DECORATE_STRING | OP_MEMBER_DECORATE_STRING => Some(Vec::new()),
            OP_PTR_EQUAL | OP_PTR_NOT_EQUAL => {
                let [bool_ty, result, a, b, ..] = *ops else {
                    return None;
                };
                let (ia, a) = self.pointer_as_int(a);
                let (ib, b) = self.pointer_as_int(b);
                let compare = match opcode {
                    OP_PTR_EQUAL => OP_I_EQUAL,
                    _ => OP_I_NOT_EQUAL,
                };
                Some(vec![ia, ib, instruction(compare, &[bool_ty, result, a, b])])
            }
            OP_PTR_DIFF => {
                let [int_ty, result, a, b, ..] = *ops else {
                    return None;
                };
                let Some(Type::Pointer(pointee)) = self.types.get(self.value_types.get(&a)?) else {
                    return None;
                };
                let (size, _) = self.size_and_align(*pointee)?;
                let bits = self.pointer_bits;
                let Some(&Type::Int(result_bits)) = self.types.get(&int_ty) else {
                    return None;
                };
                let wide = self.int_type(bits);
                let size = self.int_constant(bits, size);
                let (ia, a) = self.pointer_as_int(a);
                let (ib, b) = self.pointer_as_int(b);
                let bytes = self.new_id();
                let mut out = vec![ia, ib, instruction(OP_I_SUB, &[wide, bytes, a, b])];
                if result_bits == bits {
                    out.push(instruction(OP_S_DIV, &[int_ty, result, bytes, size]));
                } else {
                    let elements = self.new_id();
                    out.push(instruction(OP_S_DIV, &[wide, elements, bytes, size]));
                    out.push(instruction(OP_S_CONVERT, &[int_ty, result, elements]));
                }
                Some(out)
            }
            OP_COPY_MEMORY => self.copy_memory(ops),
            // Hints: the value itself; no assumption.
            OP_EXPECT_KHR => {
                let [ty, result, value, ..] = *ops else {
                    return None;
                };
                Some(vec![instruction(OP_COPY_OBJECT, &[ty, result, value])])
            }
            OP_ASSUME_TRUE_KHR => Some(Vec::new()),
            OP_VECTOR_SHUFFLE => self.vector_shuffle(ops),
            // A scalar zero as the constant it is.
            OP_CONSTANT_NULL => {
                let [ty, result, ..] = *ops else { return None };
                match self.types.get(&ty)? {
                    Type::Bool => Some(vec![instruction(OP_CONSTANT_FALSE, &[ty, result])]),
                    Type::Int(64) | Type::Float(64) => {
                        Some(vec![instruction(OP_CONSTANT, &[ty, result, 0, 0])])
                    }
                    Type::Int(_) | Type::Float(_) => {
                        Some(vec![instruction(OP_CONSTANT, &[ty, result, 0])])
                    }
                    _ => None,
                }
            }
            OP_COMPOSITE_CONSTRUCT => {
                let [ty, result, ref members @ ..] = *ops else {
                    return None;
                };
                let mut out = Vec::new();
                let parts = match self.types.get(&ty)? {
                    Type::Struct(_) => members.to_vec(),
                    // A vector's operands are scalars or vectors, whose
                    // components are its own in turn.
                    Type::Vector(elem, _) => {
                        let elem = *elem;
                        let mut scalars = Vec::new();
                        for &m in members {
                            match self.types.get(self.value_types.get(&m)?)? {
                                Type::Vector(_, n) => {
                                    for i in 0..*n {
                                        let c = self.new_id();
                                        out.push(instruction(
                                            OP_COMPOSITE_EXTRACT,
                                            &[elem, c, m, i],
                                        ));
                                        scalars.push(c);
                                    }
                                }
                                _ => scalars.push(m),
                            }
                        }
                        scalars
                    }
                    _ => return None,
                };
                self.insert_members(ty, parts, Some(result), &mut out);
                Some(out)
            }
            OP_COPY_LOGICAL => {
                let [ty, result, operand, ..] = *ops else {
                    return None;
                };
                let from = *self.value_types.get(&operand)?;
                let mut out = Vec::new();
                self.copy_logical(ty, from, operand, Some(result), &mut out)?;
                Some(out)
            }
            OP_BITCAST => {
                let [ty, result, operand, ..] = *ops else {
                    return None;
                };
                let to_pointer = matches!(self.types.get(&ty), Some(Type::Pointer(_)));
                let from_pointer = self.is_pointer_value(operand);
                let bits = self.pointer_bits;
                match (from_pointer, to_pointer) {
                    (true, false) => match self.types.get(&ty) {
                        Some(Type::Int(b)) if *b == bits => Some(vec![instruction(
                            OP_CONVERT_PTR_TO_U,
                            &[ty, result, operand],
                        )]),
                        Some(Type::Vector(..)) => {
                            let (first, int) = self.pointer_as_int(operand);
                            Some(vec![first, instruction(OP_BITCAST, &[ty, result, int])])
                        }
                        _ => None,
                    },
                    (false, true) => {
                        let from = self.types.get(self.value_types.get(&operand)?)?.clone();
                        match from {
                            Type::Int(b) if b == bits => Some(vec![instruction(
                                OP_CONVERT_U_TO_PTR,
                                &[ty, result, operand],
                            )]),
                            Type::Vector(..) => {
                                let wide = self.int_type(bits);
                                let int = self.new_id();
                                Some(vec![
                                    instruction(OP_BITCAST, &[wide, int, operand]),
                                    instruction(OP_CONVERT_U_TO_PTR, &[ty, result, int]),
                                ])
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// OpVectorShuffle of two vectors of different lengths: the shorter
    /// one first widened to the other's type (its own components, then
    /// undefined ones), the components chosen from the second renumbered.
    fn vector_shuffle(&mut self, ops: &[u32]) -> Option<Vec<Vec<u32>>> {
        let [ty, result, a, b, ref components @ ..] = *ops else {
            return None;
        };
        let (ta, tb) = (*self.value_types.get(&a)?, *self.value_types.get(&b)?);
        let (Type::Vector(_, na), Type::Vector(_, nb)) =
            (self.types.get(&ta)?, self.types.get(&tb)?)
        else {
            return None;
        };
        let (na, nb) = (*na, *nb);
        if na == nb {
            return None;
        }
        const UNDEFINED: u32 = 0xffff_ffff;
        let widen = |this: &mut Self, v: u32, short: u32, long_ty: u32, long: u32| {
            let id = this.new_id();
            let mut w = vec![long_ty, id, v, v];
            w.extend((0..long).map(|i| if i < short { i } else { UNDEFINED }));
            (instruction(OP_VECTOR_SHUFFLE, &w), id)
        };
        let mut out = Vec::new();
        let (a, b, picks): (u32, u32, Vec<u32>) = if nb < na {
            let (i, wide) = widen(self, b, nb, ta, na);
            out.push(i);
            (a, wide, components.to_vec())
        } else {
            let (i, wide) = widen(self, a, na, tb, nb);
            out.push(i);
            // Components of b were numbered after a's na; now after nb.
            let picks = components
                .iter()
                .map(|&c| {
                    if c != UNDEFINED && c >= na {
                        c - na + nb
                    } else {
                        c
                    }
                })
                .collect();
            (wide, b, picks)
        };
        let mut w = vec![ty, result, a, b];
        w.extend(picks);
        out.push(instruction(OP_VECTOR_SHUFFLE, &w));
        Some(out)
    }

    /// OpCopyMemory (no size) as a load of the source and a store to the
    /// target, each with its memory operands: one set applies to both, two
    /// sets to the target and then the source (SPIR-V 1.4).
    fn copy_memory(&mut self, ops: &[u32]) -> Option<Vec<Vec<u32>>> {
        let [target, source, ref rest @ ..] = *ops else {
            return None;
        };
        let Some(Type::Pointer(pointee)) = self.types.get(self.value_types.get(&source)?) else {
            return None;
        };
        let pointee = *pointee;
        // One memory-operand set: its mask and the literals and ids that
        // follow it (Aligned: 1; MakePointerAvailable, MakePointerVisible:
        // 1 each).
        let set_len = |words: &[u32]| -> Option<usize> {
            let mask = *words.first()?;
            let extra = (mask & 0x2 != 0) as usize
                + (mask & 0x8 != 0) as usize
                + (mask & 0x10 != 0) as usize;
            (words.len() > extra).then_some(1 + extra)
        };
        let (target_set, source_set) = match set_len(rest) {
            None => (&[][..], &[][..]),
            Some(n) if n == rest.len() => (rest, rest),
            Some(n) if set_len(&rest[n..]) == Some(rest.len() - n) => (&rest[..n], &rest[n..]),
            Some(_) => return None,
        };
        let value = self.new_id();
        let mut load = vec![pointee, value, source];
        load.extend_from_slice(source_set);
        let mut store = vec![target, value];
        store.extend_from_slice(target_set);
        Some(vec![
            instruction(OP_LOAD, &load),
            instruction(OP_STORE, &store),
        ])
    }

    /// Copies `value` of type `from` into type `to` (same layout, other
    /// decorations): member by member for structures and arrays, a plain
    /// copy otherwise. The last instruction's result is `result` when
    /// given; returns the id of the copy.
    fn copy_logical(
        &mut self,
        to: u32,
        from: u32,
        value: u32,
        result: Option<u32>,
        out: &mut Vec<Vec<u32>>,
    ) -> Option<u32> {
        let members: Vec<(u32, u32)> = match (self.types.get(&to)?, self.types.get(&from)?) {
            (Type::Struct(t), Type::Struct(f)) if t.len() == f.len() => {
                t.iter().copied().zip(f.iter().copied()).collect()
            }
            (Type::Array(t, n), Type::Array(f, _)) => {
                let n = *self.constants.get(n)?;
                vec![(*t, *f); n as usize]
            }
            _ => {
                let id = result.unwrap_or_else(|| self.new_id());
                out.push(instruction(OP_COPY_OBJECT, &[to, id, value]));
                return Some(id);
            }
        };
        let mut parts = Vec::new();
        for (i, (t, f)) in members.into_iter().enumerate() {
            let part = self.new_id();
            out.push(instruction(
                OP_COMPOSITE_EXTRACT,
                &[f, part, value, i as u32],
            ));
            parts.push(self.copy_logical(t, f, part, None, out)?);
        }
        Some(self.insert_members(to, parts, result, out))
    }

    /// A composite of type `ty` made of `parts`, inserted member by member
    /// into an undefined value, not by OpCompositeConstruct: the
    /// translator makes a constant of a constructed structure and crashes
    /// on members that are not. The last instruction's result is `result`
    /// when given; returns the composite's id.
    fn insert_members(
        &mut self,
        ty: u32,
        parts: Vec<u32>,
        result: Option<u32>,
        out: &mut Vec<Vec<u32>>,
    ) -> u32 {
        let to = ty;
        let mut whole = self.new_id();
        out.push(instruction(OP_UNDEF, &[to, whole]));
        if let (true, Some(r)) = (parts.is_empty(), result) {
            out.push(instruction(OP_COPY_OBJECT, &[to, r, whole]));
            return r;
        }
        let last = parts.len().saturating_sub(1);
        for (i, part) in parts.into_iter().enumerate() {
            let next = match (i == last, result) {
                (true, Some(r)) => r,
                _ => self.new_id(),
            };
            out.push(instruction(
                OP_COMPOSITE_INSERT,
                &[to, next, part, whole, i as u32],
            ));
            whole = next;
        }
        whole
    }
}

/// `words` (a module whose structure spirv.rs checked, native order) with
/// the instructions the translator cannot read rewritten; the same words
/// when it has none.
pub fn lower(words: Vec<u32>) -> Vec<u32> {
    let mut at = super::spirv::HEADER_WORDS;
    let mut instructions = Vec::new();
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        instructions.push(&words[at..at + count]);
        at += count;
    }
    if !instructions.iter().any(|i| needs_lowering(i[0] & 0xffff)) {
        return words;
    }
    let mut l = Lowering {
        types: HashMap::new(),
        value_types: HashMap::new(),
        constants: HashMap::new(),
        bound: words[3],
        pointer_bits: 64,
        added_globals: Vec::new(),
        int_types: HashMap::new(),
        int_constants: HashMap::new(),
        needs_int64: false,
    };
    let mut has_int64 = false;
    for i in &instructions {
        let (opcode, ops) = (i[0] & 0xffff, &i[1..]);
        match (opcode, ops) {
            (OP_CAPABILITY, [CAPABILITY_INT64, ..]) => has_int64 = true,
            // Physical32 is 1.
            (OP_MEMORY_MODEL, [addressing, ..]) => {
                l.pointer_bits = if *addressing == 1 { 32 } else { 64 }
            }
            (OP_TYPE_BOOL, [id, ..]) => {
                l.types.insert(*id, Type::Bool);
            }
            (OP_TYPE_INT, [id, bits, signed, ..]) => {
                l.types.insert(*id, Type::Int(*bits));
                if *signed == 0 {
                    l.int_types.entry(*bits).or_insert(*id);
                }
            }
            (OP_TYPE_FLOAT, [id, bits, ..]) => {
                l.types.insert(*id, Type::Float(*bits));
            }
            (OP_TYPE_VECTOR, [id, elem, n, ..]) => {
                l.types.insert(*id, Type::Vector(*elem, *n));
            }
            (OP_TYPE_ARRAY, [id, elem, length, ..]) => {
                l.types.insert(*id, Type::Array(*elem, *length));
            }
            (OP_TYPE_STRUCT, [id, members @ ..]) => {
                l.types.insert(*id, Type::Struct(members.to_vec()));
            }
            (OP_TYPE_POINTER, [id, _storage, pointee, ..]) => {
                l.types.insert(*id, Type::Pointer(*pointee));
            }
            (OP_CONSTANT, [ty, id, value, ..]) => {
                if matches!(l.types.get(ty), Some(Type::Int(32))) {
                    l.constants.insert(*id, *value);
                }
            }
            _ => {}
        }
        if records_result_type(opcode) {
            if let [ty, id, ..] = ops {
                l.value_types.insert(*id, *ty);
            }
        }
    }
    let mut body = Vec::new();
    for i in &instructions {
        let opcode = i[0] & 0xffff;
        match needs_lowering(opcode).then(|| l.lower(i)).flatten() {
            Some(replacement) => body.extend(replacement),
            None => body.push(i.to_vec()),
        }
    }
    let mut out = words[..super::spirv::HEADER_WORDS].to_vec();
    let first_function = body
        .iter()
        .position(|i| i[0] & 0xffff == OP_FUNCTION)
        .unwrap_or(body.len());
    for (n, i) in body.iter().enumerate() {
        if n == first_function {
            for g in &l.added_globals {
                out.extend_from_slice(g);
            }
        }
        out.extend_from_slice(i);
        // A new 64-bit type needs its capability, after the first one.
        if n == 0 && i[0] & 0xffff == OP_CAPABILITY && l.needs_int64 && !has_int64 {
            out.extend(instruction(OP_CAPABILITY, &[CAPABILITY_INT64]));
        }
    }
    if first_function == body.len() {
        for g in &l.added_globals {
            out.extend_from_slice(g);
        }
    }
    out[3] = l.bound;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spirv::Module;
    use std::collections::BTreeMap;

    /// cts-subset/spirv/newer.spv: every instruction this module rewrites.
    fn newer() -> Module {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../cts-subset/spirv/newer.spv"
        );
        Module::parse(&std::fs::read(path).unwrap()).unwrap()
    }

    fn opcodes(bytes: &[u8]) -> Vec<u32> {
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let mut at = crate::spirv::HEADER_WORDS;
        let mut ops = Vec::new();
        while at < words.len() {
            ops.push(words[at] & 0xffff);
            at += (words[at] >> 16) as usize;
        }
        ops
    }

    #[test]
    fn rewrites_what_the_translator_cannot_read() {
        let out = newer().for_translator(&BTreeMap::new()).unwrap();
        let ops = opcodes(&out);
        for gone in [
            OP_PTR_EQUAL,
            OP_PTR_NOT_EQUAL,
            OP_PTR_DIFF,
            OP_COPY_MEMORY,
            OP_COPY_LOGICAL,
            OP_COMPOSITE_CONSTRUCT,
            OP_EXPECT_KHR,
            OP_ASSUME_TRUE_KHR,
            OP_DECORATE_STRING,
            OP_MEMBER_DECORATE_STRING,
        ] {
            assert!(!ops.contains(&gone), "opcode {gone} left");
        }
        assert!(ops.contains(&OP_CONVERT_PTR_TO_U) && ops.contains(&OP_CONVERT_U_TO_PTR));
        // The translator reads the result (where it is installed).
        if let Some(translator) = crate::spirv::translator() {
            let dir = std::env::temp_dir().join(format!("ferrocl-lowering-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let spv = dir.join("newer.spv");
            std::fs::write(&spv, &out).unwrap();
            let status = std::process::Command::new(translator)
                .arg("-r")
                .arg(&spv)
                .arg("-o")
                .arg(dir.join("newer.bc"))
                .output()
                .unwrap();
            let _ = std::fs::remove_dir_all(&dir);
            assert!(
                status.status.success(),
                "{}",
                String::from_utf8_lossy(&status.stderr)
            );
        }
    }

    #[test]
    fn leaves_modules_without_them_alone() {
        let words = vec![
            0x0723_0203,
            0x0001_0000,
            0,
            4,
            0,
            (2 << 16) | OP_CAPABILITY,
            6,
        ];
        assert_eq!(lower(words.clone()), words);
    }
}
