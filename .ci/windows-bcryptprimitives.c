/* A test-harness shim, never shipped: Wine 8 has no bcryptprimitives.dll,
 * whose ProcessPrng Rust's std calls (since Rust 1.78) for the random keys
 * of its hash maps, so every Rust program dies at start under it with
 * status 0xc0000135 (a DLL not found). This one exports ProcessPrng and
 * fills the buffer from advapi32's RtlGenRandom (SystemFunction036), which
 * Wine has. .ci/windows-test.sh builds it with mingw and puts it beside
 * the test binaries for the run. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
