//! Entry points: commands on buffers' bytes — read, write, copy (linear and
//! rectangular), fill, map/unmap and migrate. Everything is validated
//! before the command is enqueued; the command holds an `Arc<Mem>` of each
//! buffer it touches (Command::holding), so released buffers live, and
//! their destructor callbacks wait, until it has ended.

use crate::api::enqueue::{Command, HostPtr, Sink, SHORT_TRANSFER};
use crate::api::util::{c_array, migration_flags_known};
use crate::cl::*;
use crate::core::memory::{range_in_bounds, ranges_overlap, rects_overlap, Mem, RectLayout};
use crate::core::queue::Queue;
use std::ffi::c_void;
use std::sync::Arc;

/// The queue and a buffer of the same context: "CL_INVALID_CONTEXT if the
/// context associated with command_queue and buffer are not the same".
fn queue_and_mem(queue: cl_command_queue, mem: cl_mem) -> Result<(Arc<Queue>, Arc<Mem>), cl_int> {
    let q = Queue::resolve(queue)?;
    let m = Mem::resolve_buffer(mem)?;
    if !Arc::ptr_eq(&q.context, &m.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok((q, m))
}

/// "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which
/// has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS";
/// writes likewise with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS.
pub(crate) fn check_host_access(m: &Mem, read: bool, write: bool) -> Result<(), cl_int> {
    if (read && m.has_flag(CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
        || (write && m.has_flag(CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
    {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(())
}

/// A 3-element origin or region array; NULL is CL_INVALID_VALUE.
pub(crate) fn triple(ptr: *const usize) -> Result<[usize; 3], cl_int> {
    let s = c_array(ptr, 3, CL_INVALID_VALUE)?;
    Ok([s[0], s[1], s[2]])
}

/// "CL_INVALID_VALUE if any region array element is 0."
fn region_of(ptr: *const usize) -> Result<[usize; 3], cl_int> {
    let r = triple(ptr)?;
    if r.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    Ok(r)
}

#[allow(clippy::too_many_arguments)]
fn read_write(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    write: bool,
    wait: (cl_uint, *const cl_event, *mut cl_event),
) -> Result<(), cl_int> {
    let (q, m) = queue_and_mem(queue, buffer)?;
    // "CL_INVALID_VALUE if the region being read or written specified by
    // (offset, size) is out of bounds or if ptr is a NULL value."
    if ptr.is_null() || !range_in_bounds(offset, size, m.size) {
        return Err(CL_INVALID_VALUE);
    }
    check_host_access(&m, !write, write)?;
    let kind = if write {
        CL_COMMAND_WRITE_BUFFER
    } else {
        CL_COMMAND_READ_BUFFER
    };
    let cmd = Command::new(&q, kind as cl_command_type, wait.0, wait.1, wait.2)?
        .holding(vec![m.clone()])
        .here_if(size <= SHORT_TRANSFER);
    let host = HostPtr(ptr);
    let work = move || {
        // SAFETY: the application guarantees ptr holds size bytes until the
        // command completes.
        unsafe {
            if write {
                m.write(offset, host.bytes(), size);
            } else {
                m.read(offset, host.bytes(), size);
            }
        }
        Ok(())
    };
    cmd.run(Box::new(work), blocking != 0)
}

#[allow(clippy::too_many_arguments)]
fn read_write_rect(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    origins: (*const usize, *const usize, *const usize),
    buffer_pitch: (usize, usize),
    host_pitch: (usize, usize),
    ptr: *mut c_void,
    write: bool,
    wait: (cl_uint, *const cl_event, *mut cl_event),
) -> Result<(), cl_int> {
    let (q, m) = queue_and_mem(queue, buffer)?;
    let region = region_of(origins.2)?;
    // Row/slice pitch defaults and "CL_INVALID_VALUE if buffer_row_pitch is
    // not 0 and is less than region[0]" etc. (see RectLayout::new).
    let buf = RectLayout::new(triple(origins.0)?, region, buffer_pitch.0, buffer_pitch.1)?;
    let host = RectLayout::new(triple(origins.1)?, region, host_pitch.0, host_pitch.1)?;
    // "CL_INVALID_VALUE if the region being read or written specified by
    // (buffer_origin, region, buffer_row_pitch, buffer_slice_pitch) is out
    // of bounds." / "CL_INVALID_VALUE if ptr is NULL."
    if ptr.is_null() || !buf.in_bounds(region, m.size) || host.end(region).is_none() {
        return Err(CL_INVALID_VALUE);
    }
    check_host_access(&m, !write, write)?;
    let kind = if write {
        CL_COMMAND_WRITE_BUFFER_RECT
    } else {
        CL_COMMAND_READ_BUFFER_RECT
    };
    let cmd =
        Command::new(&q, kind as cl_command_type, wait.0, wait.1, wait.2)?.holding(vec![m.clone()]);
    let hp = HostPtr(ptr);
    let work = move || {
        // SAFETY: the application guarantees the host rectangle is valid
        // memory until the command completes.
        unsafe {
            if write {
                m.write_rect(&buf, hp.bytes(), &host, region);
            } else {
                m.read_rect(&buf, hp.bytes(), &host, region);
            }
        }
        Ok(())
    };
    cmd.run(Box::new(work), blocking != 0)
}

/// Two buffers of the queue's context for a copy: "CL_INVALID_CONTEXT if
/// the context associated with command_queue, src_buffer and dst_buffer are
/// not the same".
type CopyPair = (Arc<Queue>, Arc<Mem>, Arc<Mem>);

fn copy_pair(queue: cl_command_queue, src: cl_mem, dst: cl_mem) -> Result<CopyPair, cl_int> {
    let (q, s) = queue_and_mem(queue, src)?;
    let d = Mem::resolve_buffer(dst)?;
    if !Arc::ptr_eq(&q.context, &d.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok((q, s, d))
}

/// clEnqueueCopyBufferRect and clCommandCopyBufferRectKHR.
pub(crate) fn copy_buffer_rect(
    queue: cl_command_queue,
    (src, dst): (cl_mem, cl_mem),
    origins: (*const usize, *const usize, *const usize),
    src_pitch: (usize, usize),
    dst_pitch: (usize, usize),
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, s, d) = copy_pair(queue, src, dst)?;
    let region = region_of(origins.2)?;
    let sl = RectLayout::new(triple(origins.0)?, region, src_pitch.0, src_pitch.1)?;
    let dl = RectLayout::new(triple(origins.1)?, region, dst_pitch.0, dst_pitch.1)?;
    // "CL_INVALID_VALUE if (src_origin, region, src_row_pitch,
    // src_slice_pitch) or (dst_origin, region, dst_row_pitch,
    // dst_slice_pitch) require accessing elements outside the src_buffer and
    // dst_buffer buffer objects respectively."
    if !sl.in_bounds(region, s.size) || !dl.in_bounds(region, d.size) {
        return Err(CL_INVALID_VALUE);
    }
    let ((s_root, s_off), (d_root, d_off)) = (s.root_and_offset(), d.root_and_offset());
    if s_root == d_root {
        // "CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer
        // object and src_slice_pitch is not equal to dst_slice_pitch and
        // src_row_pitch is not equal to dst_row_pitch." Read as "or" (either
        // pitch differing is an error), as PoCL and cts-subset do; compared
        // after the defaults are applied.
        if Arc::ptr_eq(&s, &d) && (sl.slice_pitch != dl.slice_pitch || sl.row_pitch != dl.row_pitch)
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same
        // buffer or sub-buffer object and the source and destination regions
        // overlap or if src_buffer and dst_buffer are different sub-buffers
        // of the same associated buffer object and they overlap." Compared in
        // the root buffer's coordinates.
        let shift = |l: &RectLayout, off: usize| RectLayout {
            origin: [l.origin[0] + off, l.origin[1], l.origin[2]],
            ..*l
        };
        if rects_overlap(&shift(&sl, s_off), &shift(&dl, d_off), region) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
    }
    let cmd = Command::to(&q, CL_COMMAND_COPY_BUFFER_RECT as cl_command_type, sink)?
        .holding(vec![s.clone(), d.clone()]);
    let work = move || {
        s.copy_rect_to(&sl, &d, &dl, region);
        Ok(())
    };
    cmd.run_replayable(work, false)
}

pub(crate) fn valid_map_flags(flags: cl_map_flags) -> bool {
    let known = (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) as cl_map_flags;
    let invalidate = flags & CL_MAP_WRITE_INVALIDATE_REGION as cl_map_flags != 0;
    let read_write = flags & (CL_MAP_READ | CL_MAP_WRITE) as cl_map_flags != 0;
    flags & !known == 0 && !(invalidate && read_write)
}

#[allow(clippy::too_many_arguments)]
fn map_buffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    wait: (cl_uint, *const cl_event, *mut cl_event),
) -> Result<*mut c_void, cl_int> {
    let (q, m) = queue_and_mem(queue, buffer)?;
    // "CL_INVALID_VALUE if region being mapped given by (offset, size) is
    // out of bounds or if size is 0 or if values specified in map_flags are
    // not valid." (CL_MAP_WRITE_INVALIDATE_REGION excludes the other two.)
    if size == 0 || !range_in_bounds(offset, size, m.size) || !valid_map_flags(map_flags) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_OPERATION if buffer has been created with
    // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set
    // in map_flags or if buffer has been created with CL_MEM_HOST_READ_ONLY
    // or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
    // CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags."
    let reads = map_flags & CL_MAP_READ as cl_map_flags != 0;
    let writes = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) as cl_map_flags != 0;
    check_host_access(&m, reads, writes)?;
    let cmd = Command::new(
        &q,
        CL_COMMAND_MAP_BUFFER as cl_command_type,
        wait.0,
        wait.1,
        wait.2,
    )?
    .holding(vec![m.clone()]);
    map_in_place(cmd, &m, offset, blocking != 0)
}

/// Zero copy: the mapped region is the object itself, at `offset` of its
/// bytes, and its address is known before the map command runs; the map is
/// recorded unless the command fails.
pub(crate) fn map_in_place(
    cmd: Command,
    m: &Mem,
    offset: usize,
    blocking: bool,
) -> Result<*mut c_void, cl_int> {
    let ptr = m.host_address().wrapping_add(offset);
    m.add_map(ptr);
    if let Err(e) = cmd.run_nothing(blocking) {
        m.remove_map(ptr);
        return Err(e);
    }
    Ok(ptr as *mut c_void)
}

pub(crate) fn clEnqueueReadBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    read_write(
        command_queue,
        buffer,
        blocking_read,
        offset,
        size,
        ptr,
        false,
        (num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueWriteBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    read_write(
        command_queue,
        buffer,
        blocking_write,
        offset,
        size,
        ptr as *mut c_void,
        true,
        (num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueCopyBuffer(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    copy_buffer(
        command_queue,
        (src_buffer, dst_buffer),
        (src_offset, dst_offset),
        size,
        Sink::Queue(num_events_in_wait_list, event_wait_list, event),
    )
}

/// clEnqueueCopyBuffer and clCommandCopyBufferKHR.
pub(crate) fn copy_buffer(
    command_queue: cl_command_queue,
    (src_buffer, dst_buffer): (cl_mem, cl_mem),
    (src_offset, dst_offset): (usize, usize),
    size: usize,
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, s, d) = copy_pair(command_queue, src_buffer, dst_buffer)?;
    // "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset +
    // size or dst_offset + size require accessing elements outside the
    // src_buffer and dst_buffer buffer objects respectively."
    if !range_in_bounds(src_offset, size, s.size) || !range_in_bounds(dst_offset, size, d.size) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same
    // buffer or sub-buffer object and the source and destination regions
    // overlap or if src_buffer and dst_buffer are different sub-buffers
    // of the same associated buffer object and they overlap."
    let ((s_root, s_off), (d_root, d_off)) = (s.root_and_offset(), d.root_and_offset());
    if s_root == d_root && ranges_overlap(s_off + src_offset, d_off + dst_offset, size) {
        return Err(CL_MEM_COPY_OVERLAP);
    }
    let cmd = Command::to(&q, CL_COMMAND_COPY_BUFFER as cl_command_type, sink)?
        .holding(vec![s.clone(), d.clone()])
        .here_if(size <= SHORT_TRANSFER);
    let work = move || {
        s.copy_to(src_offset, &d, dst_offset, size);
        Ok(())
    };
    cmd.run_replayable(work, false)
}

pub(crate) fn clEnqueueReadBufferRect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    read_write_rect(
        command_queue,
        buffer,
        blocking_read,
        (buffer_origin, host_origin, region),
        (buffer_row_pitch, buffer_slice_pitch),
        (host_row_pitch, host_slice_pitch),
        ptr,
        false,
        (num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueWriteBufferRect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    read_write_rect(
        command_queue,
        buffer,
        blocking_write,
        (buffer_origin, host_origin, region),
        (buffer_row_pitch, buffer_slice_pitch),
        (host_row_pitch, host_slice_pitch),
        ptr as *mut c_void,
        true,
        (num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueCopyBufferRect(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    copy_buffer_rect(
        command_queue,
        (src_buffer, dst_buffer),
        (src_origin, dst_origin, region),
        (src_row_pitch, src_slice_pitch),
        (dst_row_pitch, dst_slice_pitch),
        Sink::Queue(num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueFillBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    fill_buffer(
        command_queue,
        buffer,
        (pattern, pattern_size),
        offset,
        size,
        Sink::Queue(num_events_in_wait_list, event_wait_list, event),
    )
}

/// clEnqueueFillBuffer and clCommandFillBufferKHR.
pub(crate) fn fill_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    (pattern, pattern_size): (*const c_void, usize),
    offset: usize,
    size: usize,
    sink: Sink,
) -> Result<(), cl_int> {
    let (q, m) = queue_and_mem(command_queue, buffer)?;
    // "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if
    // pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }."
    if pattern.is_null() || !pattern_size.is_power_of_two() || pattern_size > 128 {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_VALUE if offset or offset + size require accessing
    // elements outside the buffer buffer object respectively."
    // "CL_INVALID_VALUE if offset and size are not a multiple of
    // pattern_size."
    if !range_in_bounds(offset, size, m.size)
        || !offset.is_multiple_of(pattern_size)
        || !size.is_multiple_of(pattern_size)
    {
        return Err(CL_INVALID_VALUE);
    }
    // "The memory associated with pattern can be reused or freed after
    // the function returns": keep a copy.
    let bytes = c_array(pattern as *const u8, pattern_size, CL_INVALID_VALUE)?.to_vec();
    let cmd = Command::to(&q, CL_COMMAND_FILL_BUFFER as cl_command_type, sink)?
        .holding(vec![m.clone()])
        .here_if(size <= SHORT_TRANSFER);
    let work = move || {
        m.fill(offset, &bytes, size);
        Ok(())
    };
    cmd.run_replayable(work, false)
}

pub(crate) fn clEnqueueMapBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<*mut c_void, cl_int> {
    map_buffer(
        command_queue,
        buffer,
        blocking_map,
        map_flags,
        offset,
        size,
        (num_events_in_wait_list, event_wait_list, event),
    )
}

pub(crate) fn clEnqueueUnmapMemObject(
    command_queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    // A buffer or an image.
    let q = Queue::resolve(command_queue)?;
    let m = Mem::resolve(memobj)?;
    if !Arc::ptr_eq(&q.context, &m.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
    // clEnqueueMapBuffer or clEnqueueMapImage for memobj."
    if !m.is_mapped(mapped_ptr as *mut u8) {
        return Err(CL_INVALID_VALUE);
    }
    let cmd = Command::new(
        &q,
        CL_COMMAND_UNMAP_MEM_OBJECT as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .holding(vec![m.clone()]);
    // Another thread may have unmapped the same pointer meanwhile.
    if !m.remove_map(mapped_ptr as *mut u8) {
        return Err(CL_INVALID_VALUE);
    }
    // Zero copy: nothing to write back; the command orders the unmap.
    cmd.run_nothing(false)
}

pub(crate) fn clEnqueueMigrateMemObjects(
    command_queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    let q = Queue::resolve(command_queue)?;
    // "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is
    // NULL."
    let handles = c_array(mem_objects, num_mem_objects as usize, CL_INVALID_VALUE)?;
    if handles.is_empty() {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects
    // is not a valid memory object."
    let mems = handles
        .iter()
        .map(|&h| Mem::resolve(h))
        .collect::<Result<Vec<_>, _>>()?;
    // "CL_INVALID_VALUE if flags is not 0 or is not any of the values
    // described in the table above."
    if !migration_flags_known(flags) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_CONTEXT if the context associated with command_queue
    // and memory objects in mem_objects are not the same".
    if mems.iter().any(|m| !Arc::ptr_eq(&m.context, &q.context)) {
        return Err(CL_INVALID_CONTEXT);
    }
    let cmd = Command::new(
        &q,
        CL_COMMAND_MIGRATE_MEM_OBJECTS as cl_command_type,
        num_events_in_wait_list,
        event_wait_list,
        event,
    )?
    .holding(mems);
    // Host and device share memory: migrating moves nothing.
    cmd.run_nothing(false)
}
