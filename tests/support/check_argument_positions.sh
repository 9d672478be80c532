#!/bin/sh
# Operator argument positions exist in one place: each operator's contract
# (runtime/exec/operator_contract.h, declared in the operator's header).
# Everything else reads and builds arguments by name. This lists any source
# line that still reads an argument by a literal position, or binds a kernel
# with a literal argument count.
#   check_argument_positions.sh SOURCE_DIR
# Exit 0 clean, 1 with the offending lines listed.
cd "$1" || exit 2
hits=$(grep -rnE \
  -e 'ctx\.(tensor|optional_tensor|int_value|double_value|bool_value|int_list|scalar_value|is_null|value)\([0-9]' \
  -e '(^|[^_a-z])args(\(\))?\[[0-9]+\]' -e 'args\.at\([0-9]+\)' -e 'args\.begin\(\) \+ [0-9]' \
  -e '(tensor_at|data<[^>]*>|fill<[^>]*>|read<[^>]*>)\([0-9]+\)' \
  -e 'KernelEntry\{"[^"]*", [0-9]+' -e '(^|[^a-z_])g\.op\(' \
  kernels runtime tools tests fuzz firmware --include='*.cpp' --include='*.h' |
  grep -v '^tests/support/check_argument_positions.sh')
if [ -n "$hits" ]; then
  echo "argument positions outside the operator contracts:" >&2
  printf '%s\n' "$hits" >&2
  exit 1
fi
echo "argument positions: none outside the operator contracts"
