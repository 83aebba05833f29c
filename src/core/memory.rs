//! Memory objects: buffers and sub-buffers. A buffer's bytes are host
//! memory the kernels use in place, so maps are zero copy: either the
//! application's own pointer (CL_MEM_USE_HOST_PTR) or an aligned allocation
//! the root buffer owns. A sub-buffer holds its parent and an offset.
//! The region, bounds and overlap arithmetic the transfer commands need
//! lives here too, as pure functions.

use crate::callback::Callback;
use crate::cl::*;
use crate::compiler::abi::ImageDescriptor;
use crate::context::Context;
use crate::host_memory;
use crate::image::shape::{HostPitches, ImageShape};
use crate::object::{cl_object, lookup, Base, ObjectKind};
use crate::sched::host::HOST;
use std::alloc::Layout;
use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub type MemDestructor = unsafe extern "C" fn(cl_mem, *mut c_void);

/// CL_DEVICE_MEM_BASE_ADDR_ALIGN (1024 bits) in bytes: the alignment of
/// every allocation and of every sub-buffer origin.
pub const BASE_ADDR_ALIGN: usize = crate::compiler::abi::MAX_ALIGN;

/// Where a buffer of a page or more starts within its first page: the
/// n-th such buffer at `(5n mod 32) * BASE_ADDR_ALIGN` bytes (0, 640,
/// 1280, ...), so that buffers made one after the other do not all start
/// at the same place in a page.
///
/// Why: page-aligned buffers put `a[i]` and `b[i]` at the same address
/// modulo 4 KiB, in the same cache sets, and a store to one looks to the
/// core like it may feed a load of the other (4K aliasing). PolyBench's
/// correlation, reading one 1 MiB buffer while it stores into another at
/// matching offsets, ran 13% slower with both page-aligned than with them
/// 512 bytes apart.
fn page_offset() -> usize {
    static BUFFERS: AtomicUsize = AtomicUsize::new(0);
    nth_page_offset(BUFFERS.fetch_add(1, Ordering::Relaxed))
}

fn nth_page_offset(n: usize) -> usize {
    (n * 5 % 32) * BASE_ADDR_ALIGN
}

/// An aligned allocation, freed on drop.
struct Alloc {
    /// Where the buffer's bytes begin, `offset` bytes into the allocation.
    ptr: NonNull<u8>,
    offset: usize,
    layout: Layout,
}

impl Alloc {
    /// `size` bytes aligned to 128 bytes, starting within a page-aligned
    /// allocation (at page_offset()) when at least a page long, itself
    /// aligned to a huge page when at least one long (host_memory); None
    /// when the allocator refuses. `size` must not be zero.
    fn new(size: usize) -> Option<Alloc> {
        let (align, offset) = if size >= HOST.page_size {
            (HOST.page_size.max(BASE_ADDR_ALIGN), page_offset())
        } else {
            (BASE_ADDR_ALIGN, 0)
        };
        let layout = host_memory::layout(size.checked_add(offset)?, align)?;
        let base = host_memory::alloc(layout);
        if base.is_null() {
            return None;
        }
        let ptr = NonNull::new(base.wrapping_add(offset))?;
        Some(Alloc {
            ptr,
            offset,
            layout,
        })
    }
}

impl Drop for Alloc {
    fn drop(&mut self) {
        let base = self.ptr.as_ptr().wrapping_sub(self.offset);
        // SAFETY: `base` is what host_memory::alloc returned in Alloc::new
        // for this very layout.
        unsafe { host_memory::dealloc(base, self.layout) };
    }
}

/// Where a memory object's bytes are.
enum Storage {
    /// Allocated by us for a root buffer.
    Owned(Alloc),
    /// CL_MEM_USE_HOST_PTR: the application's memory.
    Host(NonNull<u8>),
    /// A region of another buffer.
    Sub { parent: Arc<Mem>, offset: usize },
    /// All of another object's bytes, seen as an image: a 1D image buffer
    /// or a 2D image over a buffer (cl_khr_image2d_from_buffer), a 2D
    /// image over another 2D image.
    View(Arc<Mem>),
}

/// `#[repr(C)]` so that the ICD base comes first.
#[repr(C)]
pub struct Mem {
    base: Base,
    pub context: Arc<Context>,
    /// As the application passed them; a sub-buffer adds what it inherits.
    pub flags: cl_mem_flags,
    pub size: usize,
    /// CL_MEM_PROPERTIES: the list as passed (terminator included).
    pub properties: Vec<cl_mem_properties>,
    storage: Storage,
    /// Addresses handed out by clEnqueueMapBuffer and not yet unmapped
    /// (one entry per map: the same address may be mapped twice).
    maps: Mutex<Vec<usize>>,
    destructors: Mutex<Vec<Callback<MemDestructor>>>,
    /// A pipe's packet size and capacity (None: a buffer).
    pub pipe: Option<PipeShape>,
    /// An image's format and shape (None: a buffer or pipe).
    pub image: Option<ImageShape>,
    /// What a kernel's image argument points to (images only).
    descriptor: Option<Box<ImageDescriptor>>,
}

/// CL_PIPE_PACKET_SIZE and CL_PIPE_MAX_PACKETS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipeShape {
    pub packet_size: u32,
    pub max_packets: u32,
}

// SAFETY: the raw pointers in Storage name memory that lives as long as the
// object (ours, or the application's by the CL_MEM_USE_HOST_PTR contract);
// the object never reads or writes it except through commands the queue
// orders, and the rest of the state is behind mutexes.
unsafe impl Send for Mem {}
// SAFETY: as above.
unsafe impl Sync for Mem {}

cl_object!(Mem, Mem, CL_INVALID_MEM_OBJECT, _cl_mem);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

const HOST_PTR_FLAGS: u32 = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

impl Mem {
    fn with_storage(
        context: Arc<Context>,
        flags: cl_mem_flags,
        size: usize,
        properties: Vec<cl_mem_properties>,
        storage: Storage,
        image: Option<ImageShape>,
    ) -> Arc<Mem> {
        Arc::new(Mem {
            base: Base::new(ObjectKind::Mem),
            context,
            flags,
            size,
            properties,
            storage,
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            pipe: None,
            descriptor: None,
            image,
        })
    }

    /// A pipe: `bytes` zeroed bytes (its ring, laid out by api::pipe).
    /// CL_MEM_OBJECT_ALLOCATION_FAILURE when the memory is not there.
    pub fn new_pipe(
        context: Arc<Context>,
        flags: cl_mem_flags,
        shape: PipeShape,
        bytes: usize,
    ) -> Result<Arc<Mem>, cl_int> {
        let alloc = Alloc::new(bytes.max(1)).ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        // SAFETY: the allocation is `bytes` long and ours alone.
        unsafe { std::ptr::write_bytes(alloc.ptr.as_ptr(), 0, bytes) };
        Ok(Arc::new(Mem {
            base: Base::new(ObjectKind::Mem),
            context,
            flags,
            size: bytes,
            properties: Vec::new(),
            storage: Storage::Owned(alloc),
            maps: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            pipe: Some(shape),
            image: None,
            descriptor: None,
        }))
    }

    /// A buffer whose flags and size the caller has validated. With
    /// CL_MEM_USE_HOST_PTR the buffer is `host_ptr` itself; with
    /// CL_MEM_COPY_HOST_PTR it starts as a copy of it.
    /// CL_MEM_OBJECT_ALLOCATION_FAILURE when the memory is not there.
    ///
    /// # Safety
    /// When flags hold CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR,
    /// `host_ptr` is non-NULL and points to `size` bytes (for USE_HOST_PTR,
    /// valid for as long as the buffer lives).
    pub unsafe fn new_buffer(
        context: Arc<Context>,
        flags: cl_mem_flags,
        size: usize,
        host_ptr: *mut u8,
        properties: Vec<cl_mem_properties>,
    ) -> Result<Arc<Mem>, cl_int> {
        let storage = if flags & CL_MEM_USE_HOST_PTR as cl_mem_flags != 0 {
            Storage::Host(NonNull::new(host_ptr).ok_or(CL_INVALID_HOST_PTR)?)
        } else {
            let alloc = Alloc::new(size).ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
            if flags & CL_MEM_COPY_HOST_PTR as cl_mem_flags != 0 {
                // SAFETY: the caller guarantees host_ptr holds size bytes;
                // the allocation is new, so they cannot overlap.
                unsafe { std::ptr::copy_nonoverlapping(host_ptr, alloc.ptr.as_ptr(), size) };
            }
            Storage::Owned(alloc)
        };
        Ok(Mem::with_storage(
            context, flags, size, properties, storage, None,
        ))
    }

    /// An image of `shape`, whose flags the caller has validated. With a
    /// host pointer (`host`: its pitches), CL_MEM_USE_HOST_PTR makes the
    /// image that memory, at those pitches; CL_MEM_COPY_HOST_PTR starts the
    /// image (packed tight) as a copy of it. With `over` (a buffer, or a
    /// 2D image), the image is that object's memory at the `host` pitches.
    /// CL_MEM_OBJECT_ALLOCATION_FAILURE when the memory is not there.
    ///
    /// # Safety
    /// With `host`, `host_ptr` points to the image's pixels at those
    /// pitches (for USE_HOST_PTR, valid for as long as the image lives).
    pub unsafe fn new_image(
        context: Arc<Context>,
        flags: cl_mem_flags,
        mut shape: ImageShape,
        host_ptr: *mut u8,
        host: Option<HostPitches>,
        over: Option<&Arc<Mem>>,
        properties: Vec<cl_mem_properties>,
    ) -> Result<Arc<Mem>, cl_int> {
        let use_host = flags & CL_MEM_USE_HOST_PTR as cl_mem_flags != 0;
        if let (true, Some(h)) = (use_host || over.is_some(), host) {
            shape.row_pitch = h.row_pitch;
            if shape.slice_pitch != 0 {
                shape.slice_pitch = h.slice_pitch;
            }
        }
        let size = shape.size().ok_or(CL_INVALID_IMAGE_SIZE)?;
        let storage = match over {
            Some(m) => Storage::View(m.clone()),
            None if use_host => Storage::Host(NonNull::new(host_ptr).ok_or(CL_INVALID_HOST_PTR)?),
            None => {
                let alloc = Alloc::new(size.max(1)).ok_or(CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
                if let (true, Some(h)) = (flags & CL_MEM_COPY_HOST_PTR as cl_mem_flags != 0, host) {
                    let region = shape.byte_region(shape.extent());
                    // SAFETY: the caller guarantees the host's pixels at its
                    // pitches; the image's rectangle is its whole new
                    // allocation.
                    unsafe {
                        copy_rect(
                            host_ptr,
                            &shape.host_layout(&h),
                            alloc.ptr.as_ptr(),
                            &shape.layout([0; 3]),
                            region,
                        )
                    };
                }
                Storage::Owned(alloc)
            }
        };
        let mut mem = Mem::with_storage(context, flags, size, properties, storage, Some(shape));
        let image = Arc::get_mut(&mut mem).expect("not shared yet");
        image.descriptor = Some(Box::new(shape.descriptor(image.host_address())));
        Ok(mem)
    }

    /// An image: "CL_INVALID_MEM_OBJECT if image is not a valid image
    /// object".
    pub fn resolve_image(handle: cl_mem) -> Result<Arc<Mem>, cl_int> {
        let m = Mem::resolve(handle)?;
        if m.image.is_none() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        Ok(m)
    }

    /// A sub-buffer of `parent` (a root buffer) over `offset..offset+size`,
    /// which the caller has checked lies inside it.
    pub fn new_sub_buffer(
        parent: &Arc<Mem>,
        flags: cl_mem_flags,
        offset: usize,
        size: usize,
    ) -> Arc<Mem> {
        Mem::with_storage(
            parent.context.clone(),
            flags,
            size,
            Vec::new(),
            Storage::Sub {
                parent: parent.clone(),
                offset,
            },
            None,
        )
    }

    pub fn resolve(handle: cl_mem) -> Result<Arc<Mem>, cl_int> {
        lookup::<Mem>(handle)
    }

    /// A buffer (or sub-buffer): "CL_INVALID_MEM_OBJECT if buffer is not a
    /// valid buffer object" (a pipe or an image is none).
    pub fn resolve_buffer(handle: cl_mem) -> Result<Arc<Mem>, cl_int> {
        let m = Mem::resolve(handle)?;
        if m.pipe.is_some() || m.image.is_some() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        Ok(m)
    }

    /// The value a kernel argument naming this object gets: the image's
    /// descriptor for an image, else the address of its bytes.
    pub fn kernel_address(&self) -> usize {
        match &self.descriptor {
            Some(d) => &**d as *const ImageDescriptor as usize,
            None => self.host_address() as usize,
        }
    }

    /// The start of this object's bytes (sub-buffer offset included).
    pub fn host_address(&self) -> *mut u8 {
        match &self.storage {
            Storage::Owned(a) => a.ptr.as_ptr(),
            Storage::Host(p) => p.as_ptr(),
            // wrapping_add: no unsafe needed, and the offset was checked to
            // lie inside the parent.
            Storage::Sub { parent, offset } => parent.host_address().wrapping_add(*offset),
            Storage::View(of) => of.host_address(),
        }
    }

    /// Copies `size` bytes at `offset` of this buffer to `host`
    /// (clEnqueueReadBuffer's work).
    ///
    /// # Safety
    /// `host` holds `size` writable bytes for the call; it may lie inside
    /// this buffer.
    pub unsafe fn read(&self, offset: usize, host: *mut u8, size: usize) {
        assert!(range_in_bounds(offset, size, self.size));
        // SAFETY: the range is inside the buffer (asserted); the caller
        // vouches for host; ptr::copy allows overlap.
        unsafe { std::ptr::copy(self.host_address().add(offset), host, size) };
    }

    /// Copies `size` bytes from `host` to `offset` of this buffer
    /// (clEnqueueWriteBuffer's work).
    ///
    /// # Safety
    /// `host` holds `size` readable bytes for the call; it may lie inside
    /// this buffer.
    pub unsafe fn write(&self, offset: usize, host: *const u8, size: usize) {
        assert!(range_in_bounds(offset, size, self.size));
        // SAFETY: as in read.
        unsafe { std::ptr::copy(host, self.host_address().add(offset), size) };
    }

    /// Copies `size` bytes at `src_offset` of this buffer to `dst_offset`
    /// of `dst` (clEnqueueCopyBuffer's work); the ranges may overlap.
    pub fn copy_to(&self, src_offset: usize, dst: &Mem, dst_offset: usize, size: usize) {
        assert!(range_in_bounds(src_offset, size, self.size));
        assert!(range_in_bounds(dst_offset, size, dst.size));
        // SAFETY: both ranges are inside their buffers (asserted), which
        // the references keep alive; ptr::copy allows overlap.
        unsafe {
            std::ptr::copy(
                self.host_address().add(src_offset),
                dst.host_address().add(dst_offset),
                size,
            )
        };
    }

    /// Copies the rectangle `layout` of this buffer to the rectangle
    /// `host_layout` at `host` (clEnqueueReadBufferRect's work).
    ///
    /// # Safety
    /// The host rectangle is writable memory for the call.
    pub unsafe fn read_rect(
        &self,
        layout: &RectLayout,
        host: *mut u8,
        host_layout: &RectLayout,
        region: [usize; 3],
    ) {
        assert!(layout.in_bounds(region, self.size));
        // SAFETY: the buffer's rectangle is in bounds (asserted); the caller
        // vouches for the host's.
        unsafe { copy_rect(self.host_address(), layout, host, host_layout, region) };
    }

    /// Copies the rectangle `host_layout` at `host` to the rectangle
    /// `layout` of this buffer (clEnqueueWriteBufferRect's work).
    ///
    /// # Safety
    /// The host rectangle is readable memory for the call.
    pub unsafe fn write_rect(
        &self,
        layout: &RectLayout,
        host: *const u8,
        host_layout: &RectLayout,
        region: [usize; 3],
    ) {
        assert!(layout.in_bounds(region, self.size));
        // SAFETY: as in read_rect.
        unsafe { copy_rect(host, host_layout, self.host_address(), layout, region) };
    }

    /// Copies the rectangle `layout` of this buffer to the rectangle
    /// `dst_layout` of `dst` (clEnqueueCopyBufferRect's work); the caller
    /// has refused overlapping rectangles (CL_MEM_COPY_OVERLAP).
    pub fn copy_rect_to(
        &self,
        layout: &RectLayout,
        dst: &Mem,
        dst_layout: &RectLayout,
        region: [usize; 3],
    ) {
        assert!(layout.in_bounds(region, self.size));
        assert!(dst_layout.in_bounds(region, dst.size));
        // SAFETY: both rectangles are in bounds of their buffers (asserted),
        // which the references keep alive.
        unsafe {
            copy_rect(
                self.host_address(),
                layout,
                dst.host_address(),
                dst_layout,
                region,
            )
        };
    }

    /// Fills `size` bytes at `offset` with copies of `pattern`
    /// (clEnqueueFillBuffer's work; size a multiple of the pattern's).
    pub fn fill(&self, offset: usize, pattern: &[u8], size: usize) {
        assert!(range_in_bounds(offset, size, self.size));
        // SAFETY: the range is inside the buffer (asserted), which the
        // reference keeps alive.
        unsafe { fill(self.host_address().add(offset), pattern, size) };
    }

    /// The buffer this one is a sub-buffer of.
    pub fn parent(&self) -> Option<&Arc<Mem>> {
        match &self.storage {
            Storage::Sub { parent, .. } => Some(parent),
            _ => None,
        }
    }

    /// CL_MEM_ASSOCIATED_MEMOBJECT: a sub-buffer's parent, or the object
    /// an image is a view of.
    pub fn associated(&self) -> Option<&Arc<Mem>> {
        match &self.storage {
            Storage::Sub { parent, .. } | Storage::View(parent) => Some(parent),
            _ => None,
        }
    }

    /// CL_MEM_OFFSET: the origin within the parent (0 for a root buffer).
    pub fn offset(&self) -> usize {
        match &self.storage {
            Storage::Sub { offset, .. } => *offset,
            _ => 0,
        }
    }

    /// The root buffer's address (to tell whether two objects share bytes)
    /// and this object's offset in it.
    pub fn root_and_offset(&self) -> (*const Mem, usize) {
        match &self.storage {
            Storage::Sub { parent, offset } => (Arc::as_ptr(parent), *offset),
            Storage::View(of) => of.root_and_offset(),
            _ => (self as *const Mem, 0),
        }
    }

    /// CL_MEM_HOST_PTR: the application's pointer for CL_MEM_USE_HOST_PTR
    /// (plus the origin for a sub-buffer of such a buffer), else NULL.
    pub fn host_ptr(&self) -> *mut c_void {
        if self.flags & CL_MEM_USE_HOST_PTR as cl_mem_flags != 0 {
            self.host_address() as *mut c_void
        } else {
            std::ptr::null_mut()
        }
    }

    pub fn has_flag(&self, flag: u32) -> bool {
        self.flags & flag as cl_mem_flags != 0
    }

    /// The flags a sub-buffer created with `requested` gets: "If the
    /// CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values are
    /// not specified in flags, they are inherited from the corresponding
    /// memory access qualifiers associated with buffer. The
    /// CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR
    /// values cannot be specified in flags but are inherited ... If the
    /// CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS
    /// values are not specified in flags, they are inherited."
    pub fn sub_buffer_flags(&self, requested: cl_mem_flags) -> cl_mem_flags {
        let access = (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY) as cl_mem_flags;
        let host = (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
            as cl_mem_flags;
        let mut flags = requested | (self.flags & HOST_PTR_FLAGS as cl_mem_flags);
        if requested & access == 0 {
            flags |= self.flags & access;
        }
        if requested & host == 0 {
            flags |= self.flags & host;
        }
        flags
    }

    /// Records a map of this object at `addr` (CL_MEM_MAP_COUNT).
    pub fn add_map(&self, addr: *mut u8) {
        lock(&self.maps).push(addr as usize);
    }

    /// Whether `addr` was returned by a map of this object not yet unmapped.
    pub fn is_mapped(&self, addr: *mut u8) -> bool {
        lock(&self.maps).contains(&(addr as usize))
    }

    /// Forgets one map at `addr`; false when there is none.
    pub fn remove_map(&self, addr: *mut u8) -> bool {
        let mut maps = lock(&self.maps);
        match maps.iter().rposition(|&a| a == addr as usize) {
            Some(i) => {
                maps.swap_remove(i);
                true
            }
            None => false,
        }
    }

    pub fn map_count(&self) -> usize {
        lock(&self.maps).len()
    }

    pub fn add_destructor(&self, cb: Callback<MemDestructor>) {
        lock(&self.destructors).push(cb);
    }
}

impl Drop for Mem {
    /// "The registered user callback functions are called in the reverse
    /// order in which they were registered ... when the memory object is
    /// deleted", i.e. once no command uses it any more; before the storage
    /// (and a sub-buffer's hold on its parent) goes.
    fn drop(&mut self) {
        let handle = self as *mut Mem as cl_mem;
        let callbacks = std::mem::take(
            self.destructors
                .get_mut()
                .unwrap_or_else(|p| p.into_inner()),
        );
        for cb in callbacks.into_iter().rev() {
            // SAFETY: an application callback with the arguments the spec
            // defines; the handle is still ours during drop.
            unsafe { (cb.func)(handle, cb.user_data) };
        }
    }
}

/// `offset..offset+size` lies within an object of `total` bytes.
pub fn range_in_bounds(offset: usize, size: usize, total: usize) -> bool {
    offset.checked_add(size).is_some_and(|end| end <= total)
}

/// Two byte ranges share at least one byte (empty ranges share none).
pub fn ranges_overlap(a: usize, b: usize, size: usize) -> bool {
    size > 0 && a < b.saturating_add(size) && b < a.saturating_add(size)
}

/// A rectangular region's layout in a linear memory: origin in bytes,
/// rows and slices, and the pitches between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RectLayout {
    pub origin: [usize; 3],
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl RectLayout {
    /// Applies the spec's defaults and checks: "If row_pitch is 0,
    /// row_pitch is computed as region[0]. If slice_pitch is 0, slice_pitch
    /// is computed as region[1] × row_pitch." "CL_INVALID_VALUE if
    /// row_pitch is not 0 and is less than region[0]"; "CL_INVALID_VALUE if
    /// slice_pitch is not 0 and is less than region[1] × row_pitch and not
    /// a multiple of row_pitch" (read as: either fault is an error). The
    /// region must have no zero element.
    pub fn new(
        origin: [usize; 3],
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
    ) -> Result<RectLayout, cl_int> {
        let row_pitch = match row_pitch {
            0 => region[0],
            p if p < region[0] => return Err(CL_INVALID_VALUE),
            p => p,
        };
        let min_slice = region[1].checked_mul(row_pitch).ok_or(CL_INVALID_VALUE)?;
        let slice_pitch = match slice_pitch {
            0 => min_slice,
            p if p < min_slice || !p.is_multiple_of(row_pitch) => return Err(CL_INVALID_VALUE),
            p => p,
        };
        Ok(RectLayout {
            origin,
            row_pitch,
            slice_pitch,
        })
    }

    /// Byte offset of row (y, z) of the region, relative to the origin row.
    /// Byte offset of row `y` of slice `z` of the region.
    pub fn row_offset(&self, y: usize, z: usize) -> usize {
        self.base() + y * self.row_pitch + z * self.slice_pitch
    }

    /// Byte offset of the region's first byte (after `end` said it fits).
    pub fn base(&self) -> usize {
        self.origin[0] + self.origin[1] * self.row_pitch + self.origin[2] * self.slice_pitch
    }

    /// One past the last byte `region` touches; None on overflow.
    pub fn end(&self, region: [usize; 3]) -> Option<usize> {
        let last = [
            self.origin[0].checked_add(region[0])?,
            self.origin[1].checked_add(region[1] - 1)?,
            self.origin[2].checked_add(region[2] - 1)?,
        ];
        last[1]
            .checked_mul(self.row_pitch)?
            .checked_add(last[2].checked_mul(self.slice_pitch)?)?
            .checked_add(last[0])
    }

    /// The region fits in an object of `size` bytes.
    pub fn in_bounds(&self, region: [usize; 3], size: usize) -> bool {
        self.end(region).is_some_and(|end| end <= size)
    }
}

/// Whether two in-bounds rectangles of the same `region` in one memory share
/// a byte. Exact, row by row, when that is cheap; otherwise conservative
/// (their byte spans overlap).
pub fn rects_overlap(a: &RectLayout, b: &RectLayout, region: [usize; 3]) -> bool {
    let (Some(a_end), Some(b_end)) = (a.end(region), b.end(region)) else {
        return true;
    };
    if a_end <= b.base() || b_end <= a.base() {
        return false;
    }
    if a.row_pitch == b.row_pitch && a.slice_pitch == b.slice_pitch {
        return same_pitch_rects_overlap(a.base() as i128 - b.base() as i128, a, region);
    }
    let work = region[1]
        .saturating_mul(region[2])
        .saturating_mul(region[2]);
    if work > 1 << 22 {
        return true;
    }
    let width = region[0] as i128;
    let pitch = b.row_pitch as i128;
    for z in 0..region[2] {
        for y in 0..region[1] {
            let row = a.row_offset(y, z) as i128;
            for bz in 0..region[2] {
                // Rows of b in slice bz start at s + m * pitch; one overlaps
                // [row, row + width) when row - width < s + m*pitch < row + width.
                let s = b.row_offset(0, bz) as i128;
                let m = ((row - width - s).div_euclid(pitch) + 1).max(0);
                if m < region[1] as i128 && s + m * pitch < row + width {
                    return true;
                }
            }
        }
    }
    false
}

/// Two rectangles with the same pitches (always so within one buffer) whose
/// bases are `delta` bytes apart overlap when some row of one meets some row
/// of the other: |delta + dz*slice + dy*row| < width for slice and row
/// distances dz, dy in range. Each dz has at most two candidate dy (a row is
/// no wider than the pitch), so this takes one step per slice distance.
fn same_pitch_rects_overlap(delta: i128, layout: &RectLayout, region: [usize; 3]) -> bool {
    let (width, rows, slices) = (region[0] as i128, region[1] as i128, region[2] as i128);
    let (row, slice) = (layout.row_pitch as i128, layout.slice_pitch as i128);
    for dz in -(slices - 1)..slices {
        let t = delta + dz * slice;
        let near = (-t).div_euclid(row);
        for dy in [near, near + 1] {
            if dy.abs() < rows && (t + dy * row).abs() < width {
                return true;
            }
        }
    }
    false
}

/// Copies `region` from one rectangle layout to another.
///
/// # Safety
/// Both rectangles are in bounds of the memories `src` and `dst` point to,
/// and those stay valid for the call; they may overlap only as memmove
/// allows (row by row).
pub unsafe fn copy_rect(
    src: *const u8,
    src_layout: &RectLayout,
    dst: *mut u8,
    dst_layout: &RectLayout,
    region: [usize; 3],
) {
    for z in 0..region[2] {
        for y in 0..region[1] {
            // SAFETY: the caller guarantees both rows are in bounds.
            unsafe {
                std::ptr::copy(
                    src.add(src_layout.row_offset(y, z)),
                    dst.add(dst_layout.row_offset(y, z)),
                    region[0],
                )
            };
        }
    }
}

/// Fills `size` bytes at `dst` with copies of `pattern` (size a multiple of
/// its length), doubling what is written at each step.
///
/// # Safety
/// `dst` points to `size` writable bytes that nothing else uses meanwhile.
pub unsafe fn fill(dst: *mut u8, pattern: &[u8], size: usize) {
    if size == 0 || pattern.is_empty() {
        return;
    }
    if let [byte] = pattern {
        // SAFETY: the caller guarantees size writable bytes at dst.
        unsafe { std::ptr::write_bytes(dst, *byte, size) };
        return;
    }
    let first = pattern.len().min(size);
    // SAFETY: the caller guarantees dst holds size >= first bytes; the
    // pattern is our own copy, elsewhere in memory.
    unsafe { std::ptr::copy_nonoverlapping(pattern.as_ptr(), dst, first) };
    let mut done = first;
    while done < size {
        let n = done.min(size - done);
        // SAFETY: [0, done) is written, [done, done + n) is in bounds and
        // disjoint from it.
        unsafe { std::ptr::copy_nonoverlapping(dst, dst.add(done), n) };
        done += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_repeats_pattern() {
        for psize in [1, 2, 4, 8, 16, 32, 64, 128] {
            let pattern: Vec<u8> = (0..psize as u8).map(|b| b.wrapping_mul(7) + 1).collect();
            for count in [1, 2, 3, 7, 64] {
                let mut buf = vec![0u8; psize * count + 1];
                // SAFETY: buf holds psize * count bytes and one more.
                unsafe { fill(buf.as_mut_ptr(), &pattern, psize * count) };
                for (i, &b) in buf[..psize * count].iter().enumerate() {
                    assert_eq!(b, pattern[i % psize]);
                }
                assert_eq!(buf[psize * count], 0);
            }
        }
    }

    fn layout(origin: [usize; 3], region: [usize; 3], row: usize, slice: usize) -> RectLayout {
        RectLayout::new(origin, region, row, slice).unwrap()
    }

    #[test]
    fn successive_buffers_start_at_different_places_in_a_page() {
        let page = HOST.page_size;
        let a = Alloc::new(page).unwrap();
        let b = Alloc::new(4 * page).unwrap();
        let huge = Alloc::new(host_memory::HUGE_PAGE + 1).unwrap();
        let small = Alloc::new(100).unwrap();
        for x in [&a, &b, &huge, &small] {
            assert_eq!(x.ptr.as_ptr() as usize % BASE_ADDR_ALIGN, 0);
        }
        // 32 buffers in a row start at 32 different places of a 4 KiB page.
        let offsets: std::collections::HashSet<usize> = (0..32).map(nth_page_offset).collect();
        assert_eq!(offsets.len(), 32);
        assert!(offsets
            .iter()
            .all(|o| o % BASE_ADDR_ALIGN == 0 && *o < 4096));
        // The whole buffer is writable, and freeing finds the allocation.
        // SAFETY: each is as long as asked for.
        unsafe {
            std::ptr::write_bytes(b.ptr.as_ptr(), 1, 4 * page);
            std::ptr::write_bytes(huge.ptr.as_ptr(), 1, host_memory::HUGE_PAGE + 1);
        }
    }

    /// An image over a sub-buffer is that sub-buffer's bytes: the same
    /// address, the same root for overlap checks, no offset of its own.
    #[test]
    fn an_image_view_shares_its_buffers_bytes() {
        use crate::device::Device;
        use crate::image::format::ImageFormat;
        use crate::image::shape::{ImageDesc, ImageLimits};
        let ctx = Context::new(vec![Device::root().clone()], Vec::new(), None);
        let rw = CL_MEM_READ_WRITE as cl_mem_flags;
        // SAFETY: no host pointer.
        let root = unsafe { Mem::new_buffer(ctx.clone(), rw, 4096, std::ptr::null_mut(), vec![]) }
            .unwrap();
        let sub = Mem::new_sub_buffer(&root, rw, 1024, 1024);
        let desc = ImageDesc {
            image_type: CL_MEM_OBJECT_IMAGE2D,
            width: 4,
            height: 2,
            row_pitch: 32,
            ..Default::default()
        };
        let limits = ImageLimits {
            max_2d: [64; 2],
            max_3d: [64; 3],
            max_array_size: 64,
            max_buffer_pixels: 64,
        };
        let format = ImageFormat::new(CL_RGBA, CL_UNORM_INT8).unwrap();
        let (shape, pitches) = ImageShape::new(&desc, format, true, &limits).unwrap();
        // SAFETY: no host pointer; the view is the sub-buffer's memory.
        let image = unsafe {
            Mem::new_image(
                ctx,
                rw,
                shape,
                std::ptr::null_mut(),
                pitches,
                Some(&sub),
                vec![],
            )
        }
        .unwrap();
        assert_eq!(image.host_address(), sub.host_address());
        assert_eq!(image.image.unwrap().row_pitch, 32);
        assert_eq!(image.root_and_offset(), (Arc::as_ptr(&root), 1024));
        assert!(Arc::ptr_eq(image.associated().unwrap(), &sub));
        assert_eq!(image.offset(), 0);
    }

    #[test]
    fn bounds() {
        assert!(range_in_bounds(0, 16, 16));
        assert!(range_in_bounds(16, 0, 16));
        assert!(!range_in_bounds(1, 16, 16));
        assert!(!range_in_bounds(usize::MAX, 2, 16));
    }

    #[test]
    fn linear_overlap() {
        assert!(ranges_overlap(0, 8, 9));
        assert!(!ranges_overlap(0, 8, 8));
        assert!(ranges_overlap(8, 0, 9));
        assert!(!ranges_overlap(3, 3, 0));
        assert!(ranges_overlap(3, 3, 1));
    }

    #[test]
    fn pitch_defaults_and_errors() {
        let l = layout([0; 3], [4, 3, 2], 0, 0);
        assert_eq!((l.row_pitch, l.slice_pitch), (4, 12));
        let l = layout([0; 3], [4, 3, 2], 10, 0);
        assert_eq!(l.slice_pitch, 30);
        assert_eq!(
            RectLayout::new([0; 3], [4, 3, 2], 3, 0),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            RectLayout::new([0; 3], [4, 3, 2], 4, 8),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            RectLayout::new([0; 3], [4, 3, 2], 4, 13),
            Err(CL_INVALID_VALUE)
        );
    }

    #[test]
    fn rect_end_and_bounds() {
        // origin (1,2,1) pitches 10/100, region 3x2x2: last byte at
        // 1+2 + (2+1)*10 + (1+1)*100 = 233 exclusive end.
        let l = layout([1, 2, 1], [3, 2, 2], 10, 100);
        assert_eq!(l.end([3, 2, 2]), Some(1 + 3 + 3 * 10 + 2 * 100));
        assert!(l.in_bounds([3, 2, 2], 234));
        assert!(!l.in_bounds([3, 2, 2], 233));
        let huge = layout([usize::MAX, 0, 0], [1, 1, 1], 0, 0);
        assert_eq!(huge.end([1, 1, 1]), None);
    }

    #[test]
    fn rect_overlap_exact() {
        let region = [4, 4, 1];
        // Interleaved columns of a 16-byte-pitch image do not overlap.
        let a = layout([0, 0, 0], region, 16, 0);
        let b = layout([8, 0, 0], region, 16, 0);
        assert!(!rects_overlap(&a, &b, region));
        let c = layout([3, 0, 0], region, 16, 0);
        assert!(rects_overlap(&a, &c, region));
        // Shifted down a row overlaps; beyond the last row does not.
        let d = layout([0, 3, 0], region, 16, 0);
        assert!(rects_overlap(&a, &d, region));
        let e = layout([0, 4, 0], region, 16, 0);
        assert!(!rects_overlap(&a, &e, region));
        // Different pitches: b's rows land between a's.
        let f = layout([4, 0, 0], region, 32, 0);
        let g = layout([0, 0, 0], region, 32, 0);
        assert!(!rects_overlap(&f, &g, region));
        let h = layout([0, 1, 0], [4, 2, 1], 8, 0);
        let i = layout([4, 0, 0], [4, 2, 1], 16, 0);
        // h rows: 8..12, 16..20; i rows: 4..8, 20..24.
        assert!(!rects_overlap(&h, &i, [4, 2, 1]));
    }

    #[test]
    fn rect_copy_and_fill() {
        let src: Vec<u8> = (0..64).collect();
        let mut dst = vec![0u8; 64];
        let region = [2, 2, 2];
        let s = layout([1, 1, 1], region, 4, 16);
        let d = layout([0, 0, 0], region, 0, 0);
        // SAFETY: both layouts are in bounds of 64-byte vectors.
        unsafe { copy_rect(src.as_ptr(), &s, dst.as_mut_ptr(), &d, region) };
        assert_eq!(&dst[..8], &[21, 22, 25, 26, 37, 38, 41, 42]);
        let mut buf = vec![0u8; 20];
        // SAFETY: buf holds 20 bytes.
        unsafe { fill(buf.as_mut_ptr(), &[1, 2, 3, 4], 20) };
        assert_eq!(buf, [1, 2, 3, 4].repeat(5));
    }
}

#[cfg(test)]
mod overlap_tests {
    use super::*;

    /// Every byte of a rectangle, for a brute-force comparison.
    fn bytes(l: &RectLayout, region: [usize; 3]) -> std::collections::HashSet<usize> {
        let mut set = std::collections::HashSet::new();
        for z in 0..region[2] {
            for y in 0..region[1] {
                for x in 0..region[0] {
                    set.insert(l.row_offset(y, z) + x);
                }
            }
        }
        set
    }

    #[test]
    fn same_pitch_overlap_matches_brute_force() {
        let mut seed = 12345u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..3000 {
            let region = [1 + next(5), 1 + next(4), 1 + next(4)];
            let row = region[0] + next(4);
            let slice = row * (region[1] + next(3));
            let a = RectLayout::new([next(6), next(6), next(4)], region, row, slice).unwrap();
            let b = RectLayout::new([next(6), next(6), next(4)], region, row, slice).unwrap();
            let brute = !bytes(&a, region).is_disjoint(&bytes(&b, region));
            assert_eq!(
                rects_overlap(&a, &b, region),
                brute,
                "{a:?} {b:?} {region:?}"
            );
        }
    }
}
