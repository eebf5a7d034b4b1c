/* A test fixture, never shipped: Wine 8 has no bcryptprimitives.dll!ProcessPrng, which Rust's
 * standard library calls for random bytes (Windows 10 and later ship it). Placed beside
 * dynoscope.exe under Wine, this DLL answers it from advapi32's RtlGenRandom. */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG part = length > 0x7fffffffUL ? 0x7fffffffUL : (ULONG)length;
        if (!RtlGenRandom(data, part)) {
            return FALSE;
        }
        data += part;
        length -= part;
    }
    return TRUE;
}
