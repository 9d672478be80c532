#include "runtime/core/format.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace etns::runtime {
namespace {

// Appends to the caller's buffer and keeps counting past its end, so the
// result is the untruncated length as with vsnprintf.
class Writer {
 public:
  Writer(char* out, size_t capacity) : out_(out), capacity_(capacity) {}

  void put(char c) {
    if (length_ + 1 < capacity_) out_[length_] = c;
    ++length_;
  }
  void put(const char* text, size_t n) {
    for (size_t i = 0; i < n; ++i) put(text[i]);
  }
  void repeat(char c, size_t n) {
    for (size_t i = 0; i < n; ++i) put(c);
  }
  size_t finish() {
    if (capacity_ > 0) out_[length_ < capacity_ ? length_ : capacity_ - 1] = '\0';
    return length_;
  }

 private:
  char* out_;
  size_t capacity_;
  size_t length_ = 0;
};

enum class Length { None, Char, Short, Long, LongLong, Size, Max, Ptrdiff, LongDouble };

struct Spec {
  bool left = false;   // '-'
  bool zero = false;   // '0'
  bool plus = false;   // '+'
  bool space = false;  // ' '
  size_t width = 0;
  int precision = -1;  // -1: none given
  Length length = Length::None;
};

// Large enough for any real width; keeps the parse from overflowing.
constexpr int kMaxField = 1 << 20;

// One converted field: sign or "0x", then `zeros` zeros, then the body,
// padded to the width. Zero padding goes after the prefix, as in C.
void emit(Writer& w, const Spec& spec, const char* prefix, size_t zeros, const char* body,
          size_t body_length, bool zero_pad) {
  const size_t prefix_length = std::strlen(prefix);
  const size_t length = prefix_length + zeros + body_length;
  const size_t pad = spec.width > length ? spec.width - length : 0;
  if (!spec.left && !zero_pad) w.repeat(' ', pad);
  w.put(prefix, prefix_length);
  if (!spec.left && zero_pad) w.repeat('0', pad);
  w.repeat('0', zeros);
  w.put(body, body_length);
  if (spec.left) w.repeat(' ', pad);
}

void emit_text(Writer& w, const Spec& spec, const char* text, size_t length) {
  emit(w, spec, "", 0, text, length, false);
}

void format_integer(Writer& w, const Spec& spec, unsigned long long magnitude, const char* prefix,
                    unsigned base, bool upper) {
  const char* digit_set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char digits[24];  // 64 bits in octal is 22 digits
  size_t n = 0;
  // C prints no digits for a zero with precision 0.
  if (magnitude != 0 || spec.precision != 0) {
    do {
      digits[sizeof(digits) - ++n] = digit_set[magnitude % base];
      magnitude /= base;
    } while (magnitude != 0);
  }
  const size_t precision = spec.precision > 0 ? static_cast<size_t>(spec.precision) : 0;
  const size_t zeros = precision > n ? precision - n : 0;
  // A precision turns the '0' flag off for integers.
  emit(w, spec, prefix, zeros, digits + sizeof(digits) - n, n, spec.zero && spec.precision < 0);
}

long long read_signed(Length length, va_list* ap) {
  switch (length) {
    case Length::Char: return static_cast<signed char>(va_arg(*ap, int));
    case Length::Short: return static_cast<short>(va_arg(*ap, int));
    case Length::Long: return va_arg(*ap, long);
    case Length::LongLong:
    case Length::LongDouble: return va_arg(*ap, long long);
    case Length::Size: return va_arg(*ap, std::make_signed_t<size_t>);
    case Length::Max: return va_arg(*ap, intmax_t);
    case Length::Ptrdiff: return va_arg(*ap, ptrdiff_t);
    case Length::None: break;
  }
  return va_arg(*ap, int);
}

unsigned long long read_unsigned(Length length, va_list* ap) {
  switch (length) {
    case Length::Char: return static_cast<unsigned char>(va_arg(*ap, unsigned));
    case Length::Short: return static_cast<unsigned short>(va_arg(*ap, unsigned));
    case Length::Long: return va_arg(*ap, unsigned long);
    case Length::LongLong:
    case Length::LongDouble: return va_arg(*ap, unsigned long long);
    case Length::Size: return va_arg(*ap, size_t);
    case Length::Max: return va_arg(*ap, uintmax_t);
    case Length::Ptrdiff: return va_arg(*ap, std::make_unsigned_t<ptrdiff_t>);
    case Length::None: break;
  }
  return va_arg(*ap, unsigned);
}

// An unevaluated sum hi + lo, |lo| at most half an ulp of hi: enough to
// hold a double times a power of ten exactly, for rounding like glibc.
struct Wide {
  double hi;
  double lo;
};

// Dekker's exact product a * b = hi + lo, from plain double operations. It
// needs each operation rounded on its own: the build's -ffp-contract=off.
Wide exact_product(double a, double b) {
  const auto split = [](double x) {
    const double c = 134217729.0 * x;  // 2^27 + 1
    const double high = c - (c - x);
    return Wide{high, x - high};
  };
  const Wide sa = split(a);
  const Wide sb = split(b);
  const double p = a * b;
  return {p, ((sa.hi * sb.hi - p) + sa.hi * sb.lo + sa.lo * sb.hi) + sa.lo * sb.lo};
}

// hi + lo renormalised so |lo| <= half an ulp of hi; needs |hi| >= |lo|.
Wide renormalise(double hi, double lo) {
  const double sum = hi + lo;
  return {sum, lo - (sum - hi)};
}

// w * power. Exact when w.lo is 0, else off by ~2^-104 relative.
Wide multiply(Wide w, double power) {
  const Wide p = exact_product(w.hi, power);
  return renormalise(p.hi, p.lo + w.lo * power);
}

// w / power: the quotient plus the remainder over the divisor. The remainder
// hi - quotient * power is exact for a correctly rounded quotient, so with
// w.lo 0 the low part keeps the remainder's sign and whether it is zero.
Wide divide(Wide w, double power) {
  const double quotient = w.hi / power;
  const Wide back = exact_product(quotient, power);
  return renormalise(quotient, (((w.hi - back.hi) - back.lo) + w.lo) / power);
}

// 10^0 .. 10^22: every one exact in a double.
constexpr double kExactPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int kMaxExactPower = 22;

// magnitude * 10^shift. Exact for |shift| <= 22 (one exact power); beyond,
// steps of 10^22 leave ~1e-30 relative error: no double lies exactly on a
// decimal tie out there, and against glibc it has never changed a digit.
Wide scale_by_power(double magnitude, int shift) {
  // Extreme values are first moved by 2^+-256 (exact) so Dekker's partial
  // products neither overflow nor go subnormal; it comes off at the end, exactly.
  const double bias = magnitude < 1e-200 ? 0x1p256 : magnitude > 1e200 ? 0x1p-256 : 1;
  Wide w{magnitude * bias, 0};
  for (; shift > kMaxExactPower; shift -= kMaxExactPower) w = multiply(w, 1e22);
  for (; shift < -kMaxExactPower; shift += kMaxExactPower) w = divide(w, 1e22);
  w = shift >= 0 ? multiply(w, kExactPowers[shift]) : divide(w, kExactPowers[-shift]);
  return {w.hi / bias, w.lo / bias};
}

// hi + lo rounded to an integer, ties to even as glibc does.
uint64_t round_to_integer(Wide u) {
  uint64_t n = static_cast<uint64_t>(u.hi);
  double fraction = u.hi - static_cast<double>(n);  // exact
  double rest = u.lo;
  if (fraction == 0) {
    // hi is whole (always so past 2^53): lo alone holds the fraction and
    // perhaps whole units too, which move into n.
    int64_t whole = static_cast<int64_t>(rest);
    if (static_cast<double>(whole) > rest) --whole;  // floor
    n += static_cast<uint64_t>(whole);
    fraction = rest - static_cast<double>(whole);  // exact
    rest = 0;
  }
  // Otherwise |lo| is below the spacing of hi's fractions, so it only
  // decides when hi's fraction is exactly one half.
  const bool tie = fraction == 0.5 && rest == 0;
  const bool up = fraction > 0.5 || (fraction == 0.5 && rest > 0) || (tie && (n & 1) != 0);
  return up ? n + 1 : n;
}

// The decimal exponent of a finite, non-zero magnitude, from binary powers of
// ten; rounding in the scaling can leave it one off next to a power of ten,
// which round_to_digits corrects.
int estimate_exponent(double magnitude) {
  static const double kPowers[] = {1e1, 1e2, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256};
  double scaled = magnitude;
  int exponent = 0;
  if (scaled >= 10) {
    for (int i = 8; i >= 0; --i) {
      if (scaled >= kPowers[i]) {
        scaled /= kPowers[i];
        exponent += 1 << i;
      }
    }
  } else if (scaled < 1) {
    for (int i = 8; i >= 0; --i) {
      if (scaled * kPowers[i] < 10) {
        scaled *= kPowers[i];
        exponent -= 1 << i;
      }
    }
  }
  return exponent;
}

// magnitude as a `precision`-digit integer n and its decimal exponent X
// (magnitude ~ n * 10^(X - P + 1)): corrects X until the unrounded value has
// P integer digits, then rounds.
uint64_t round_to_digits(double magnitude, int precision, int* exponent) {
  uint64_t scale = 1;  // 10^(precision - 1): the smallest P-digit integer
  for (int i = 1; i < precision; ++i) scale *= 10;
  const auto below = [](Wide u, uint64_t limit) {
    const double bound = static_cast<double>(limit);  // exact: at most 10^17
    return u.hi < bound || (u.hi == bound && u.lo < 0);
  };
  Wide units{};
  for (int attempt = 0; attempt < 3; ++attempt) {
    units = scale_by_power(magnitude, precision - 1 - *exponent);
    if (below(units, scale)) {
      --*exponent;
    } else if (!below(units, scale * 10)) {
      ++*exponent;
    } else {
      break;
    }
  }
  const uint64_t n = round_to_integer(units);
  if (n == scale * 10) {  // 9.999996 rounded up to 10.0000
    ++*exponent;
    return scale;
  }
  return n;
}

// The %g text of `kept` significant digits with decimal exponent `exponent`,
// fixed or scientific as C specifies, into `body` (32 bytes: at most
// "0.0000" + 17 digits, or 17 digits + ".e+308"). Returns its length.
size_t lay_out_general(char* body, const char* digits, int kept, int exponent, int precision, bool upper) {
  size_t length = 0;
  if (exponent < -4 || exponent >= precision) {
    body[length++] = digits[0];
    if (kept > 1) {
      body[length++] = '.';
      for (int i = 1; i < kept; ++i) body[length++] = digits[i];
    }
    body[length++] = upper ? 'E' : 'e';
    body[length++] = exponent < 0 ? '-' : '+';
    const int e = exponent < 0 ? -exponent : exponent;  // at least two digits, as C
    if (e >= 100) body[length++] = static_cast<char>('0' + e / 100);
    body[length++] = static_cast<char>('0' + e / 10 % 10);
    body[length++] = static_cast<char>('0' + e % 10);
  } else if (exponent >= 0) {
    for (int i = 0; i <= exponent; ++i) body[length++] = digits[i];
    if (kept > exponent + 1) {
      body[length++] = '.';
      for (int i = exponent + 1; i < kept; ++i) body[length++] = digits[i];
    }
  } else {
    body[length++] = '0';
    body[length++] = '.';
    for (int i = -1; i > exponent; --i) body[length++] = '0';
    for (int i = 0; i < kept; ++i) body[length++] = digits[i];
  }
  return length;
}

// %g and %G. Estimates the decimal exponent X, corrects it until
// |value| / 10^(X - P + 1) has P integer digits, rounds that to an integer,
// then lays the digits out fixed or scientific as C specifies.
void format_general(Writer& w, const Spec& spec, double value, bool upper) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));  // sign and class without libm
  const bool negative = (bits >> 63) != 0;
  const char* sign = negative ? "-" : spec.plus ? "+" : spec.space ? " " : "";
  const unsigned biased_exponent = static_cast<unsigned>(bits >> 52) & 0x7FF;
  const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  if (biased_exponent == 0x7FF) {
    const char* text = mantissa != 0 ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    emit(w, spec, sign, 0, text, 3, false);  // C pads these with spaces only
    return;
  }
  const bool zero_pad = spec.zero && !spec.left;
  if (biased_exponent == 0 && mantissa == 0) {
    emit(w, spec, sign, 0, "0", 1, zero_pad);
    return;
  }

  // C: precision 0 means 1; past 17 a double has no more meaningful digits.
  int precision = spec.precision < 0 ? 6 : spec.precision == 0 ? 1 : spec.precision;
  if (precision > 17) precision = 17;
  const double magnitude = negative ? -value : value;
  int exponent = estimate_exponent(magnitude);
  uint64_t n = round_to_digits(magnitude, precision, &exponent);

  char digits[17];
  for (int i = precision - 1; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + n % 10);
    n /= 10;
  }
  int kept = precision;  // %g drops trailing zeros
  while (kept > 1 && digits[kept - 1] == '0') --kept;

  char body[32];
  const size_t length = lay_out_general(body, digits, kept, exponent, precision, upper);
  emit(w, spec, sign, 0, body, length, zero_pad);
}

// Reads a decimal field; clamps instead of overflowing.
int parse_number(const char** p) {
  int value = 0;
  while (**p >= '0' && **p <= '9') {
    if (value < kMaxField) value = value * 10 + (**p - '0');
    ++*p;
  }
  return value < kMaxField ? value : kMaxField;
}

// Reads one directive's flags, width, precision and length modifier at *p
// (just past the '%'), taking '*' widths and precisions from ap.
Spec parse_spec(const char** cursor, va_list* args) {
  const char*& p = *cursor;
  va_list& ap = *args;
  Spec spec;
  for (;; ++p) {
    if (*p == '-') {
      spec.left = true;
    } else if (*p == '0') {
      spec.zero = true;
    } else if (*p == '+') {
      spec.plus = true;
    } else if (*p == ' ') {
      spec.space = true;
    } else if (*p != '#') {
      break;
    }
  }
  if (*p == '*') {
    ++p;
    const int width = va_arg(ap, int);
    if (width < 0) spec.left = true;  // C: a negative '*' width means '-'
    const int magnitude = width < 0 ? (width < -kMaxField ? kMaxField : -width) : width;
    spec.width = static_cast<size_t>(magnitude < kMaxField ? magnitude : kMaxField);
  } else {
    spec.width = static_cast<size_t>(parse_number(&p));
  }
  if (*p == '.') {
    ++p;
    if (*p == '*') {
      ++p;
      const int precision = va_arg(ap, int);
      spec.precision = precision < 0 ? -1 : (precision < kMaxField ? precision : kMaxField);
    } else {
      spec.precision = parse_number(&p);
    }
  }
  switch (*p) {
    case 'h':
      spec.length = p[1] == 'h' ? Length::Char : Length::Short;
      p += p[1] == 'h' ? 2 : 1;
      break;
    case 'l':
      spec.length = p[1] == 'l' ? Length::LongLong : Length::Long;
      p += p[1] == 'l' ? 2 : 1;
      break;
    case 'z': spec.length = Length::Size; ++p; break;
    case 'j': spec.length = Length::Max; ++p; break;
    case 't': spec.length = Length::Ptrdiff; ++p; break;
    case 'L': spec.length = Length::LongDouble; ++p; break;
    default: break;
  }
  return spec;
}

// Converts one directive; false for an unknown conversion, which the caller
// copies through (no argument is consumed).
bool format_conversion(Writer& w, char conversion, const Spec& spec, va_list* args) {
  va_list& ap = *args;
  switch (conversion) {
    case '%':
      w.put('%');
      break;
    case 'c': {
      const char c = static_cast<char>(va_arg(ap, int));
      emit_text(w, spec, &c, 1);
      break;
    }
    case 's': {
      const char* s = va_arg(ap, const char*);
      if (s == nullptr) s = "(null)";
      size_t length = 0;  // never reads past the precision: s need not be terminated
      while ((spec.precision < 0 || length < static_cast<size_t>(spec.precision)) &&
             s[length] != '\0') {
        ++length;
      }
      emit_text(w, spec, s, length);
      break;
    }
    case 'd':
    case 'i': {
      const long long value = read_signed(spec.length, &ap);
      // Negate in unsigned arithmetic so LLONG_MIN works.
      const unsigned long long magnitude =
          value < 0 ? 0ull - static_cast<unsigned long long>(value)
                    : static_cast<unsigned long long>(value);
      const char* sign = value < 0 ? "-" : spec.plus ? "+" : spec.space ? " " : "";
      format_integer(w, spec, magnitude, sign, 10, false);
      break;
    }
    case 'u':
      format_integer(w, spec, read_unsigned(spec.length, &ap), "", 10, false);
      break;
    case 'o':
      format_integer(w, spec, read_unsigned(spec.length, &ap), "", 8, false);
      break;
    case 'x':
    case 'X':
      format_integer(w, spec, read_unsigned(spec.length, &ap), "", 16, conversion == 'X');
      break;
    case 'p': {
      const void* pointer = va_arg(ap, const void*);
      if (pointer == nullptr) {
        emit_text(w, spec, "(nil)", 5);  // glibc's spelling
      } else {
        format_integer(w, spec, reinterpret_cast<uintptr_t>(pointer), "0x", 16, false);
      }
      break;
    }
    case 'g':
    case 'G':
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'a':
    case 'A': {
      // Only %g is implemented; the others still consume their argument.
      const double value = spec.length == Length::LongDouble
                               ? static_cast<double>(va_arg(ap, long double))
                               : va_arg(ap, double);
      format_general(w, spec, value,
                     conversion == 'G' || conversion == 'E' || conversion == 'F' ||
                         conversion == 'A');
      break;
    }
    case 'n':
      static_cast<void>(va_arg(ap, void*));  // writing through it is not supported
      break;
    default:  // unknown
      return false;
  }
  return true;
}

}  // namespace

size_t format_text_v(char* out, size_t capacity, const char* format, va_list args) {
  Writer w(out, capacity);
  // A local copy so the helpers can take it by pointer: va_list is an array
  // type on some ABIs, which a parameter cannot be passed on as.
  va_list ap;
  va_copy(ap, args);
  const char* p = format;
  while (*p != '\0') {
    if (*p != '%') {
      w.put(*p++);
      continue;
    }
    const char* start = p++;
    const Spec spec = parse_spec(&p, &ap);
    const char conversion = *p;
    if (conversion == '\0') {  // a format cut short: show what there was
      w.put(start, static_cast<size_t>(p - start));
      break;
    }
    ++p;
    // An unknown directive is copied through.
    if (!format_conversion(w, conversion, spec, &ap)) w.put(start, static_cast<size_t>(p - start));
  }
  va_end(ap);
  return w.finish();
}

size_t format_text(char* out, size_t capacity, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const size_t length = format_text_v(out, capacity, format, args);
  va_end(args);
  return length;
}

}  // namespace etns::runtime
