//! Memory objects: buffers and sub-buffers.
