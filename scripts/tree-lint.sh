#!/usr/bin/env bash
# The tree speaks of the product: no lab-notebook words (which work session,
# which engineer, which run of a series) in code, RTL, scripts or docs.
# History belongs in git log and CHANGELOG.md, which this check skips.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='\bsessions? [0-9]+|\bthis session\b|\bhelpers? ([A-Z]\b|were |was |compil)|\bthe lead\b|other helpers|\bhelper [A-D]\b|\brun [a-t] on\b|\b(in|from) run [a-t]\b|\bturn [0-9]\b'
hits=$(git ls-files -- ':!CHANGELOG.md' ':!.ci/*' ':!scripts/tree-lint.sh' | grep -vE '\.(png|svg|vcd|fst|a|lock)$' \
  | xargs grep -nIiE "$pattern" 2>/dev/null || true)
# The same words broken over a line end ("session\n18", 'run\n"t"').
split=$(git ls-files -- ':!CHANGELOG.md' ':!.ci/*' ':!scripts/tree-lint.sh' | grep -vE '\.(png|svg|vcd|fst|a|lock)$' \
  | xargs perl -0777 -ne 'while (/\bsessions?\s*\n\s*[0-9]+|\brun\s*\n\s*"[a-t]"|\brun "[a-t]"/gi) { my $l = 1 + (substr($_, 0, $-[0]) =~ tr/\n//); print "$ARGV:$l: $&\n" =~ s/\n(?!$)/ /gr }' 2>/dev/null || true)
hits=$(printf '%s\n%s' "$hits" "$split" | sed '/^$/d')
if [ -n "$hits" ]; then
  echo "tree-lint: history words in the product (move them to CHANGELOG.md or git log):" >&2
  echo "$hits" >&2
  echo "tree-lint: $(echo "$hits" | wc -l) line(s)" >&2
  exit 1
fi
echo "tree-lint: clean"
