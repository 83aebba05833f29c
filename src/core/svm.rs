//! Shared virtual memory allocations.
