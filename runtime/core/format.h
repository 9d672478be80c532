#pragma once

#include <cstdarg>
#include <cstddef>

// A small printf-style formatter for device code. newlib's snprintf drags in
// malloc/_sbrk (and nano's lacks %lld), so the runtime and kernels format
// their messages with this instead.
namespace etns::runtime {

// Like vsnprintf: writes at most `capacity - 1` characters and a NUL (nothing
// when capacity is 0, so `out` may then be null) and returns the length the
// whole text would have had.
//
// Conversions: %% %c %s %d %i %u %o %x %X %p %g %G. Flags '-', '0', '+', ' '
// ('#' is accepted and ignored); width and precision as digits or '*';
// length modifiers hh h l ll z j t (and L for %g). Precision limits %s and
// gives integers a minimum digit count. %g follows the C rules (default 6
// significant digits, at most 17) with plain double arithmetic, no libm, and
// rounds like glibc (exactly, ties to even) up to 17 digits. %e %E %f %F %a %A
// take their double but print it as %g; %n is not supported.
size_t format_text_v(char* out, size_t capacity, const char* format, va_list args);

size_t format_text(char* out, size_t capacity, const char* format, ...)
    __attribute__((format(printf, 3, 4)));

}  // namespace etns::runtime
