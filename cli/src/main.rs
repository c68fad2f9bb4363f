//! The `queens` binary: sets the allocator and hands the command line to
//! [`queens_cli::main_with`], which runs the library and talks.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::c_void;
use std::process::ExitCode;

use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: Allocator = Allocator;

fn main() -> ExitCode {
    ExitCode::from(queens_cli::main_with(
        std::env::args_os(),
        &queens_cli::Version::binary(),
    ))
}

/// mimalloc, and the system's allocator where mimalloc cannot reserve.
///
/// mimalloc reserves its memory in arenas of 64 MiB and more of address
/// space, so under a tight `ulimit -v` (`RLIMIT_AS`) it fails where the
/// system's allocator, which maps only what it hands out, would not: at
/// 10 MB even `queens --version` aborted, and at 100 MB `count 14` died
/// with "memory allocation of 144 bytes failed" instead of refusing the
/// count in one line (issue 47, item 16). A block the system allocated is
/// one mimalloc does not own (`mi_is_in_heap_region`), so each is freed by
/// the allocator that made it.
struct Allocator;

impl Allocator {
    /// Whether mimalloc made the block at `ptr`.
    fn is_mimallocs(ptr: *mut u8) -> bool {
        // SAFETY: mimalloc only compares the address with its arenas; it
        // reads nothing at `ptr`.
        #[allow(unsafe_code)]
        unsafe {
            libmimalloc_sys::mi_is_in_heap_region(ptr.cast::<c_void>().cast_const())
        }
    }
}

// SAFETY: every block is made by mimalloc or, where it returned null, by
// the system allocator, and is resized and freed by the one that made it
// (`is_mimallocs`); both honour `Layout` as `GlobalAlloc` requires.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `layout` is passed on.
        let ptr = unsafe { MiMalloc.alloc(layout) };
        if ptr.is_null() {
            // SAFETY: as above.
            unsafe { System.alloc(layout) }
        } else {
            ptr
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `layout` is passed on.
        let ptr = unsafe { MiMalloc.alloc_zeroed(layout) };
        if ptr.is_null() {
            // SAFETY: as above.
            unsafe { System.alloc_zeroed(layout) }
        } else {
            ptr
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if Self::is_mimallocs(ptr) {
            // SAFETY: mimalloc made this block with `layout`.
            unsafe { MiMalloc.dealloc(ptr, layout) }
        } else {
            // SAFETY: the system allocator made this block with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !Self::is_mimallocs(ptr) {
            // SAFETY: the system allocator made this block with `layout`.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: mimalloc made this block with `layout`.
        let moved = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            return moved;
        }
        // mimalloc could not grow it (the old block is still valid): move
        // it to the system allocator.
        // SAFETY: `new_size` with the old alignment is a valid layout, as
        // the caller of `realloc` promises.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as above.
        let fresh = unsafe { System.alloc(new_layout) };
        if !fresh.is_null() {
            // SAFETY: both blocks are valid for the smaller of their sizes
            // and do not overlap (`fresh` is a new block).
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, fresh, layout.size().min(new_size));
                MiMalloc.dealloc(ptr, layout);
            }
        }
        fresh
    }
}
