//! Entry points: events, user events, markers and barriers.

use crate::api::enqueue::Command;
use crate::api::util::{c_array, InfoOut};
use crate::cl::*;
use crate::core::callback::Callback;
use crate::core::context::Context;
use crate::core::event::{Event, EventCallbackFn, Stamp};
use crate::core::object::{self, handle_of, publish};
use crate::core::queue::{Queue, Sync};
use std::ffi::c_void;
use std::sync::Arc;

fn events(num_events: cl_uint, event_list: *const cl_event) -> Result<Vec<Arc<Event>>, cl_int> {
    let handles = c_array(event_list, num_events as usize, CL_INVALID_VALUE)?;
    if handles.is_empty() {
        return Err(CL_INVALID_VALUE);
    }
    let list = handles
        .iter()
        .map(|&h| Event::resolve(h))
        .collect::<Result<Vec<_>, _>>()?;
    if list
        .iter()
        .any(|e| !Arc::ptr_eq(&e.context, &list[0].context))
    {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok(list)
}

fn marker(
    queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    command_type: u32,
    sync: Sync,
) -> Result<(), cl_int> {
    let q = Queue::resolve(queue)?;
    Command::new(&q, command_type as cl_command_type, num, list, event)?
        .submit(sync, None, false)
        .map(drop)
}

pub(crate) fn clWaitForEvents(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> Result<(), cl_int> {
    let list = events(num_events, event_list)?;
    let mut failed = false;
    for ev in &list {
        failed |= ev.wait() < 0;
    }
    if failed {
        return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    Ok(())
}

pub(crate) fn clGetEventInfo(
    event: cl_event,
    param_name: cl_event_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let ev = Event::resolve(event)?;
    let out = InfoOut::new(param_value_size, param_value, param_value_size_ret);
    match param_name {
        CL_EVENT_COMMAND_QUEUE => {
            out.write(&ev.queue.as_ref().map_or(std::ptr::null_mut(), handle_of))
        }
        CL_EVENT_CONTEXT => out.write(&handle_of(&ev.context)),
        CL_EVENT_COMMAND_TYPE => out.write(&ev.command_type),
        CL_EVENT_COMMAND_EXECUTION_STATUS => out.write(&ev.status()),
        CL_EVENT_REFERENCE_COUNT => out.write(&object::app_ref_count::<Event>(event)?),
        _ => Err(CL_INVALID_VALUE),
    }
}

pub(crate) fn clRetainEvent(event: cl_event) -> Result<(), cl_int> {
    object::retain::<Event>(event)
}

pub(crate) fn clReleaseEvent(event: cl_event) -> Result<(), cl_int> {
    object::release::<Event>(event)
}

pub(crate) fn clGetEventProfilingInfo(
    event: cl_event,
    param_name: cl_profiling_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), cl_int> {
    let ev = Event::resolve(event)?;
    // "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE
    // flag is not set for the command-queue, if the execution status of
    // the command identified by event is not CL_COMPLETE or if event is
    // a user event object."
    let profiled = ev.queue.as_ref().is_some_and(|q| q.profiling());
    if !profiled || ev.status() != CL_COMPLETE as cl_int {
        return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
    }
    let stamp = match param_name {
        CL_PROFILING_COMMAND_QUEUED => Stamp::Queued,
        CL_PROFILING_COMMAND_SUBMIT => Stamp::Submit,
        CL_PROFILING_COMMAND_START => Stamp::Start,
        CL_PROFILING_COMMAND_END => Stamp::End,
        CL_PROFILING_COMMAND_COMPLETE => Stamp::Complete,
        _ => return Err(CL_INVALID_VALUE),
    };
    InfoOut::new(param_value_size, param_value, param_value_size_ret).write(&ev.stamp_value(stamp))
}

pub(crate) fn clSetEventCallback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: Option<EventCallbackFn>,
    user_data: *mut c_void,
) -> Result<(), cl_int> {
    let ev = Event::resolve(event)?;
    let func = pfn_notify.ok_or(CL_INVALID_VALUE)?;
    let known = [CL_SUBMITTED as cl_int, CL_RUNNING as cl_int, CL_COMPLETE];
    if !known.contains(&command_exec_callback_type) {
        return Err(CL_INVALID_VALUE);
    }
    ev.add_callback(command_exec_callback_type, Callback { func, user_data });
    Ok(())
}

pub(crate) fn clCreateUserEvent(context: cl_context) -> Result<cl_event, cl_int> {
    let ctx = Context::resolve(context)?;
    Ok(publish(Event::new_user(ctx)))
}

pub(crate) fn clSetUserEventStatus(
    event: cl_event,
    execution_status: cl_int,
) -> Result<(), cl_int> {
    let ev = Event::resolve(event)?;
    if !ev.is_user() {
        return Err(CL_INVALID_EVENT);
    }
    // "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a
    // negative integer value."
    if execution_status > CL_COMPLETE as cl_int {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_OPERATION if the execution_status for event has
    // already been changed by a previous call to clSetUserEventStatus."
    if !ev.claim_user_status() {
        return Err(CL_INVALID_OPERATION);
    }
    ev.end_user_event(execution_status);
    Ok(())
}

pub(crate) fn clEnqueueMarkerWithWaitList(
    command_queue: cl_command_queue,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    marker(
        command_queue,
        num_events_in_wait_list,
        event_wait_list,
        event,
        CL_COMMAND_MARKER,
        Sync::Marker,
    )
}

pub(crate) fn clEnqueueBarrierWithWaitList(
    command_queue: cl_command_queue,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    marker(
        command_queue,
        num_events_in_wait_list,
        event_wait_list,
        event,
        CL_COMMAND_BARRIER,
        Sync::Barrier,
    )
}

pub(crate) fn clEnqueueMarker(
    command_queue: cl_command_queue,
    event: *mut cl_event,
) -> Result<(), cl_int> {
    if event.is_null() {
        Queue::resolve(command_queue)?;
        return Err(CL_INVALID_VALUE);
    }
    marker(
        command_queue,
        0,
        std::ptr::null(),
        event,
        CL_COMMAND_MARKER,
        Sync::Marker,
    )
}

pub(crate) fn clEnqueueBarrier(command_queue: cl_command_queue) -> Result<(), cl_int> {
    marker(
        command_queue,
        0,
        std::ptr::null(),
        std::ptr::null_mut(),
        CL_COMMAND_BARRIER,
        Sync::Barrier,
    )
}

pub(crate) fn clEnqueueWaitForEvents(
    command_queue: cl_command_queue,
    num_events: cl_uint,
    event_list: *const cl_event,
) -> Result<(), cl_int> {
    let q = Queue::resolve(command_queue)?;
    // The 1.x form: "CL_INVALID_VALUE if num_events is zero or
    // event_list is NULL", and later commands wait for these events.
    let list = events(num_events, event_list)?;
    if list.iter().any(|e| !Arc::ptr_eq(&e.context, &q.context)) {
        return Err(CL_INVALID_CONTEXT);
    }
    let handles: Vec<cl_event> = list.iter().map(handle_of).collect();
    marker(
        command_queue,
        handles.len() as cl_uint,
        handles.as_ptr(),
        std::ptr::null_mut(),
        CL_COMMAND_BARRIER,
        Sync::Barrier,
    )
}
